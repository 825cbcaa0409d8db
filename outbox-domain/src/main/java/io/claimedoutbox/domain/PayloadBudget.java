package io.claimedoutbox.domain;

/**
 * The payload limit of one claim (the port's {@code claimDue(worker, limit, maxPayloadBytes,
 * lease)}), taken entry by entry in due order: an entry fits while the bytes taken stay within the limit, and the first always fits, so
 * an entry larger than the limit is still claimed on its own. Not thread-safe; one per claim.
 */
public final class PayloadBudget {

  private final long limit;
  private long taken;
  private int entries;

  private PayloadBudget(long limit) {
    this.limit = limit;
  }

  /**
   * @param maxPayloadBytes the claim's limit, positive
   * @return an empty budget
   */
  public static PayloadBudget of(long maxPayloadBytes) {
    if (maxPayloadBytes <= 0) {
      throw new IllegalArgumentException("maxPayloadBytes must be positive, was " + maxPayloadBytes);
    }
    return new PayloadBudget(maxPayloadBytes);
  }

  /**
   * Takes the next entry in due order if it fits.
   *
   * @param payloadBytes its payload's size
   * @return whether it fits; once one does not, the claim takes no later entry either
   */
  public boolean take(long payloadBytes) {
    if (entries > 0 && payloadBytes > limit - taken) {
      return false;
    }
    taken += payloadBytes;
    entries++;
    return true;
  }
}
