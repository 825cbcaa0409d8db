package io.claimedoutbox.domain;

import java.util.Locale;

/**
 * Whether <em>this invocation</em> persisted the transition it asked for. Separate from the entry
 * a result carries, which says what is stored now.
 */
public enum ClaimTransitionOutcome {
  /** This call wrote the transition; the result carries the entry exactly as written. */
  APPLIED,
  /**
   * The row exists and is not terminal, but is no longer held under the caller's claim (claimed
   * by someone else, re-claimed, or released). Nothing was written.
   */
  STALE_CLAIM,
  /** The row was already delivered or dead-lettered before this call. Nothing was written. */
  TERMINAL,
  /**
   * The claim was valid when evaluated, but another writer changed the row first. The result
   * carries the winner's entry, terminal or not; it must never be counted as this caller's write.
   */
  CONCURRENCY_LOST,
  /**
   * There is no row (never was, deleted before, or deleted during the write). The result carries
   * the caller's own claimed snapshot, not a durable state.
   */
  MISSING;

  /**
   * The lower-case name used in metric tags and logs, for example {@code stale_claim}.
   *
   * @return the lower-case name
   */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
