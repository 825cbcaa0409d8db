package io.claimedoutbox.port;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;

/**
 * A transition's write was sent but its result could not be learned (the commit acknowledgement
 * was lost and the row could not be read again). The transition may or may not have landed; it
 * is <em>never</em> to be treated as applied. The exception carries the claim and the attempt's
 * write stamp so the caller can resolve it later: the write landed exactly when the stored entry's
 * last write stamp equals {@link #writeStamp()} (or a later revision was written on top of it).
 */
public class TransitionOutcomeUnknownException extends OutboxStoreException {

  private static final long serialVersionUID = 1L;

  private final transient Claim claim;
  private final TransitionKind transition;
  private final transient WriteStamp writeStamp;

  /**
   * @param claim the claim the transition was asked under
   * @param transition which transition
   * @param writeStamp the stamp the attempt would have stored
   * @param cause the failure that hid the outcome
   */
  public TransitionOutcomeUnknownException(
      Claim claim, TransitionKind transition, WriteStamp writeStamp, Throwable cause) {
    super("outcome of " + transition + " for outbox entry " + claim.entryId() + " by worker "
        + claim.owner() + " is unknown: the write was sent but not confirmed (write stamp "
        + writeStamp + ")", cause);
    this.claim = claim;
    this.transition = transition;
    this.writeStamp = writeStamp;
  }

  /** @return the claim the transition was asked under */
  public Claim claim() {
    return claim;
  }

  /** @return which transition */
  public TransitionKind transition() {
    return transition;
  }

  /** @return the stamp the attempt would have stored */
  public WriteStamp writeStamp() {
    return writeStamp;
  }
}
