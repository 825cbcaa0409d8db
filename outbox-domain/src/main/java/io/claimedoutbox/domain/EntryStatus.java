package io.claimedoutbox.domain;

import java.util.Locale;

/** The durable status of an entry. */
public enum EntryStatus {
  /** Appended, never claimed; claimable once its available time has come. */
  PENDING,
  /** Held by one worker's claim; claimable by anyone once the lease has expired. */
  CLAIMED,
  /** Released after a failed attempt; claimable again at its retry time. */
  FAILED,
  /** Terminal: the message was delivered. Never changes again. */
  DELIVERED,
  /**
   * Terminal for workers: given up on. No claim or transition changes it again; only an operator's
   * requeue ({@link OutboxEntry#requeued}) puts it back as {@link #PENDING}, fenced by a new claim
   * generation.
   */
  DEAD_LETTERED;

  /**
   * Whether the status is final: {@link #DELIVERED} or {@link #DEAD_LETTERED}.
   *
   * @return {@code true} for the two terminal statuses
   */
  public boolean isTerminal() {
    return this == DELIVERED || this == DEAD_LETTERED;
  }

  /**
   * The lower-case name used in metric tags and logs, for example {@code dead_lettered}.
   *
   * @return the lower-case name
   */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
