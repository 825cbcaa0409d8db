package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import java.sql.SQLException;

/**
 * One transaction: lock up to N due rows with {@code FOR UPDATE SKIP LOCKED}, write each as
 * claimed in one batch, commit. Rows another worker is claiming at the same moment are skipped,
 * never waited for, so concurrent batches never block each other or hand out one row twice.
 * Three round trips per batch: the select, the updates, the commit; four on MariaDB, which reads
 * the claimable ids without locks first ({@link SqlDialect#checksKeysWhileLocking}).
 */
final class SkipLockedClaimer extends DueEntryClaimer {

  SkipLockedClaimer(JdbcAccess jdbc, SqlDialect dialect) {
    super(jdbc, dialect);
  }

  @Override
  <T> T run(JdbcAccess.Work<T> work) throws SQLException {
    return jdbc.inTransaction(Repeat.SAFE, work);
  }

  @Override
  boolean locksRows() {
    return true;
  }
}
