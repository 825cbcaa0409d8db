package io.claimedoutbox.adapter.jpa;

/** How a batch claim keeps two workers from taking the same row. */
public enum ClaimLocking {
  /**
   * {@code SELECT … FOR UPDATE SKIP LOCKED}: one transaction locks up to N due rows, skipping rows
   * other workers hold, and claims them. One round trip for the select, one update per row, one
   * commit. Needs PostgreSQL 9.5+, MariaDB 10.6+ or MySQL 8+.
   */
  SKIP_LOCKED,
  /**
   * Reads due candidates without locks, then claims each in its own short transaction with a
   * version-checked update; a candidate another worker took first is skipped. Works on every
   * database, at the cost of a transaction per claimed row.
   */
  OPTIMISTIC,
  /** {@link #SKIP_LOCKED} when the Hibernate dialect is PostgreSQL, MariaDB or MySQL; else optimistic. */
  AUTO
}
