package io.claimedoutbox.domain;

import java.util.Optional;

/**
 * The claim fence: decides, from the durable row alone, whether a transition under a claim may be
 * written, and classifies a write that lost its compare-and-set. Every store uses it, so every
 * store decides outcomes the same way (rules 1–5 of the contract, in that order).
 */
public final class ClaimFence {

  private ClaimFence() {}

  /**
   * Rules 1–3: the outcome that is already decided before any write, or empty when the caller's
   * claim still holds the row and the write may be attempted (rule 4).
   *
   * @param claim the caller's claim
   * @param durable the row as stored now, empty when there is none
   * @return {@code MISSING}, {@code TERMINAL} or {@code STALE_CLAIM}; empty when writable
   */
  public static Optional<ClaimTransitionResult> decideBeforeWrite(
      Claim claim, Optional<OutboxEntry> durable) {
    Arguments.requireNonNull(claim, "claim");
    if (durable.isEmpty()) {
      return Optional.of(ClaimTransitionResult.missing(claim));
    }
    OutboxEntry row = durable.get();
    if (row.status().isTerminal()) {
      return Optional.of(ClaimTransitionResult.terminal(row));
    }
    if (!isHeldBy(row, claim)) {
      return Optional.of(ClaimTransitionResult.staleClaim(row));
    }
    return Optional.empty();
  }

  /**
   * Whether the row is {@code CLAIMED} under exactly the claim's owner and token. A released row
   * has no owner and so is held by no claim.
   *
   * @param row the durable entry
   * @param claim the caller's claim
   * @return {@code true} when a write under {@code claim} may be attempted
   */
  public static boolean isHeldBy(OutboxEntry row, Claim claim) {
    return row.status() == EntryStatus.CLAIMED
        && row.currentClaim().map(held -> held.isHeldBy(claim.owner(), claim.token())).orElse(false);
  }

  /**
   * Rule 5: the outcome of a write whose compare-and-set lost, from the row read again afterwards.
   *
   * @param claim the caller's claim
   * @param refreshed the row as stored after the lost write, empty when it is gone
   * @return {@code MISSING} with the caller's snapshot, or {@code CONCURRENCY_LOST} with the winner
   */
  public static ClaimTransitionResult afterLostWrite(Claim claim, Optional<OutboxEntry> refreshed) {
    return refreshed.map(ClaimTransitionResult::concurrencyLost)
        .orElseGet(() -> ClaimTransitionResult.missing(claim));
  }
}
