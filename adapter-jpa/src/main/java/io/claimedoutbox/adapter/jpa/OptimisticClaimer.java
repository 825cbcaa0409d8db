package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import java.sql.SQLException;

/**
 * For databases without {@code SKIP LOCKED}: read due candidates without locks, then write every
 * claim with the revision it was read at, each committed on its own. A candidate another worker
 * claimed first fails that check (update count 0) and is left out, so a batch may come back
 * shorter than the rows that were due.
 */
final class OptimisticClaimer extends DueEntryClaimer {

  OptimisticClaimer(JdbcAccess jdbc, SqlDialect dialect) {
    super(jdbc, dialect);
  }

  @Override
  <T> T run(JdbcAccess.Work<T> work) throws SQLException {
    return jdbc.autoCommitted(Repeat.SAFE, work);
  }

  @Override
  boolean locksRows() {
    return false;
  }
}
