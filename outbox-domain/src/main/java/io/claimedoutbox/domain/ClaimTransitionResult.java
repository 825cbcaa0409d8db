package io.claimedoutbox.domain;

import java.util.Optional;

/**
 * The answer to a claimed transition: the {@code outcome} says whether this call wrote it, the
 * {@code entry} says what is stored now (or, for {@link ClaimTransitionOutcome#MISSING}, the
 * caller's own snapshot). The two are never merged: only {@link #isApplied()} attributes a write
 * to the caller.
 *
 * @param outcome whether this call wrote the transition; never null
 * @param entry the written entry, the durable entry observed, or the caller's snapshot when
 *     missing; never null
 */
public record ClaimTransitionResult(ClaimTransitionOutcome outcome, OutboxEntry entry) {

  /**
   * Validates the result.
   *
   * @throws NullPointerException if an argument is null
   */
  public ClaimTransitionResult {
    Arguments.requireNonNull(outcome, "outcome");
    Arguments.requireNonNull(entry, "entry");
  }

  /**
   * @param written the entry exactly as this call wrote it
   * @return an {@code APPLIED} result
   */
  public static ClaimTransitionResult applied(OutboxEntry written) {
    return new ClaimTransitionResult(ClaimTransitionOutcome.APPLIED, written);
  }

  /**
   * @param durable the entry now stored, held by someone else or released
   * @return a {@code STALE_CLAIM} result
   */
  public static ClaimTransitionResult staleClaim(OutboxEntry durable) {
    return new ClaimTransitionResult(ClaimTransitionOutcome.STALE_CLAIM, durable);
  }

  /**
   * @param durable the terminal entry now stored
   * @return a {@code TERMINAL} result
   */
  public static ClaimTransitionResult terminal(OutboxEntry durable) {
    return new ClaimTransitionResult(ClaimTransitionOutcome.TERMINAL, durable);
  }

  /**
   * @param winner the entry another writer stored first
   * @return a {@code CONCURRENCY_LOST} result
   */
  public static ClaimTransitionResult concurrencyLost(OutboxEntry winner) {
    return new ClaimTransitionResult(ClaimTransitionOutcome.CONCURRENCY_LOST, winner);
  }

  /**
   * @param claim the caller's claim, whose snapshot the result carries
   * @return a {@code MISSING} result
   */
  public static ClaimTransitionResult missing(Claim claim) {
    return new ClaimTransitionResult(
        ClaimTransitionOutcome.MISSING, Arguments.requireNonNull(claim, "claim").snapshot());
  }

  /**
   * Whether this invocation persisted the transition. Only then may the caller log, count or
   * acknowledge the transition as its own.
   *
   * @return {@code true} exactly for {@link ClaimTransitionOutcome#APPLIED}
   */
  public boolean isApplied() {
    return outcome == ClaimTransitionOutcome.APPLIED;
  }

  /**
   * The status stored now.
   *
   * @return the entry's status, or empty for {@link ClaimTransitionOutcome#MISSING} (no row)
   */
  public Optional<EntryStatus> durableStatus() {
    return outcome == ClaimTransitionOutcome.MISSING ? Optional.empty() : Optional.of(entry.status());
  }
}
