package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One transaction: lock up to N due rows with {@code FOR UPDATE SKIP LOCKED}, write each as
 * claimed in one batch, commit. Rows another worker is claiming at the same moment are skipped,
 * never waited for, so concurrent batches never block each other or hand out one row twice.
 * Three round trips per batch: the select, the updates, the commit.
 */
final class SkipLockedClaimer extends DueEntryClaimer {

  SkipLockedClaimer(JdbcAccess jdbc, SqlDialect dialect) {
    super(jdbc, dialect);
  }

  @Override
  List<OutboxEntry> claim(WorkerId worker, int maxEntries, Duration lease, Instant now) throws SQLException {
    return jdbc.inTransaction(connection -> {
      List<OutboxEntry> due = dueRows(connection, now, maxEntries, true);
      List<OutboxEntry> claimed = new ArrayList<>(due.size());
      if (due.isEmpty()) {
        return claimed;
      }
      int[] counts = writeClaims(connection, due, claimed, worker, lease, now);
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] == RowWriter.NOT_MATCHED) {
          throw new IllegalStateException("bug: locked row " + due.get(i).id() + " changed under its lock");
        }
      }
      return claimed;
    });
  }
}
