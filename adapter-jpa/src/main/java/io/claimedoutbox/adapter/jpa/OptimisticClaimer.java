package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
  List<OutboxEntry> claim(WorkerId worker, int maxEntries, Duration lease, Instant now) throws SQLException {
    return jdbc.autoCommitted(connection -> {
      List<OutboxEntry> due = dueRows(connection, now, maxEntries, false);
      List<OutboxEntry> written = new ArrayList<>(due.size());
      if (due.isEmpty()) {
        return written;
      }
      int[] counts = writeClaims(connection, due, written, worker, lease, now);
      List<OutboxEntry> claimed = new ArrayList<>(due.size());
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] == RowWriter.WRITTEN) {
          claimed.add(written.get(i));
        }
      }
      return claimed;
    });
  }
}
