package io.claimedoutbox.domain;

import java.util.Locale;

/** The four transitions a claim holder may ask for. */
public enum TransitionKind {
  /** The message was emitted: the entry becomes {@link EntryStatus#DELIVERED}. */
  DELIVERED,
  /** The attempt failed: the claim is released and the entry is due again at its retry time. */
  FAILED,
  /** The entry is given up on: it becomes {@link EntryStatus#DEAD_LETTERED}. */
  DEAD_LETTERED,
  /** The holder keeps its claim and renews the lease, optionally recording progress. */
  SAVE;

  /**
   * The lower-case name used in metric tags and logs, for example {@code dead_lettered}.
   *
   * @return the lower-case name
   */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
