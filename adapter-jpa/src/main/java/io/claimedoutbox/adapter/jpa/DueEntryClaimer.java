package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One way of claiming a batch of due rows (see {@link ClaimLocking}). Both read the due rows in
 * one statement, take the claim step of the domain ({@link OutboxEntry#claimedBy}) and write all
 * claims in one round trip ({@link RowWriter}), so a batch costs the same few round trips
 * whatever its size.
 */
abstract class DueEntryClaimer {

  final JdbcAccess jdbc;
  final SqlDialect dialect;
  private final RowWriter writer;

  DueEntryClaimer(JdbcAccess jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.writer = RowWriter.of(dialect);
  }

  /** @return the entries as claimed and committed, oldest due first */
  abstract List<OutboxEntry> claim(WorkerId worker, int maxEntries, Duration lease, Instant now) throws SQLException;

  List<OutboxEntry> dueRows(Connection connection, Instant now, int limit, boolean lock) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(EntryRows.dueQuery(lock))) {
      dialect.setInstant(select, 1, now);
      select.setInt(2, limit);
      List<OutboxEntry> due = new ArrayList<>(Math.min(limit, 1024));
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          due.add(EntryRows.read(rows, dialect));
        }
      }
      return due;
    }
  }

  /**
   * Writes each entry's claim, checked against its revision.
   *
   * @return per entry {@link RowWriter#WRITTEN}, {@link RowWriter#NOT_MATCHED} or {@link RowWriter#UNKNOWN}
   */
  int[] writeClaims(Connection connection, List<OutboxEntry> due, List<OutboxEntry> claimed,
      WorkerId worker, Duration lease, Instant now) throws SQLException {
    WriteStamp stamp = WriteStamp.fresh();
    List<RowWriter.RowWrite> writes = new ArrayList<>(due.size());
    for (OutboxEntry entry : due) {
      OutboxEntry next = entry.claimedBy(worker, now, lease, stamp);
      writes.add(new RowWriter.RowWrite(next, entry.revision(), null));
      claimed.add(next);
    }
    return writer.write(connection, writes);
  }
}
