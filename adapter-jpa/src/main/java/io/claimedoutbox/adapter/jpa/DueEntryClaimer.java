package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.domain.PayloadBudget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One way of claiming a batch of due rows (see {@link ClaimLocking}). Both read the due rows that
 * are first of their ordering keys in one statement (two on MariaDB, see
 * {@link SqlDialect#checksKeysWhileLocking}), take the claim step of the domain ({@link OutboxEntry#claimedBy}) and write all
 * claims in one round trip ({@link RowWriter}), so a batch costs the same few round trips
 * whatever its size.
 */
abstract class DueEntryClaimer {

  final JdbcAccess jdbc;
  private final SqlDialect dialect;
  private final RowWriter writer;
  private final ClaimQuerySteering steering = new ClaimQuerySteering();

  DueEntryClaimer(JdbcAccess jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.writer = RowWriter.of(dialect);
  }

  /** @return the entries as claimed and committed, oldest due first */
  final List<OutboxEntry> claim(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease, Instant now)
      throws SQLException {
    return run(connection -> {
      List<OutboxEntry> due = dueRows(connection, now, maxEntries, maxPayloadBytes);
      if (due.isEmpty()) {
        return List.of();
      }
      WriteStamp stamp = WriteStamp.fresh();
      List<RowWriter.RowWrite> writes = new ArrayList<>(due.size());
      for (OutboxEntry entry : due) {
        writes.add(new RowWriter.RowWrite(entry.claimedBy(worker, now, lease, stamp), entry.revision(), null));
      }
      int[] outcomes = writer.write(connection, writes);
      List<OutboxEntry> claimed = new ArrayList<>(due.size());
      for (int i = 0; i < outcomes.length; i++) {
        if (isClaimed(writes.get(i).written(), outcomes[i])) {
          claimed.add(writes.get(i).written());
        }
      }
      return claimed;
    });
  }

  /**
   * Claims entries the caller read or appended ({@link io.claimedoutbox.port.OutboxClaimStore#claimAppended},
   * {@link io.claimedoutbox.port.OutboxClaimStore#claimNextOfKeys}): no due query, one write of all
   * claims, each conditioned on the revision the caller saw. A row whose update count the driver did
   * not report is read back and is ours only if it carries this claim's write stamp.
   *
   * @return the entries as claimed and committed, in the order given
   */
  final List<OutboxEntry> claimAtRevisions(WorkerId worker, List<OutboxEntry> candidates, Duration lease, Instant now)
      throws SQLException {
    WriteStamp stamp = WriteStamp.fresh();
    List<RowWriter.RowWrite> writes = new ArrayList<>(candidates.size());
    for (OutboxEntry entry : candidates) {
      writes.add(new RowWriter.RowWrite(entry.claimedBy(worker, now, lease, stamp), entry.revision(), null));
    }
    JdbcAccess.Work<List<OutboxEntry>> work = connection -> {
      int[] outcomes = writer.write(connection, writes);
      List<OutboxEntry> claimed = new ArrayList<>(writes.size());
      for (int i = 0; i < outcomes.length; i++) {
        OutboxEntry written = writes.get(i).written();
        if (outcomes[i] == RowWriter.WRITTEN || outcomes[i] == RowWriter.UNKNOWN && carries(connection, written)) {
          claimed.add(written);
        }
      }
      return claimed;
    };
    // the claims are new: repeating them after a broken connection could not tell ours from a rival's
    return writer.isOneStatement() ? jdbc.autoCommitted(Repeat.ONCE, work) : jdbc.inTransaction(Repeat.ONCE, work);
  }

  private boolean carries(Connection connection, OutboxEntry written) throws SQLException {
    return EntryRows.find(connection, written.id(), dialect)
        .map(stored -> stored.lastWriteStamp().equals(written.lastWriteStamp()))
        .orElse(false);
  }

  /** Runs the claim: in one locking transaction, or statement by statement. */
  abstract <T> T run(JdbcAccess.Work<T> work) throws SQLException;

  /** @return whether the due rows are read with {@code FOR UPDATE SKIP LOCKED} */
  abstract boolean locksRows();

  /** @return whether a claim written with this outcome is the caller's */
  abstract boolean isClaimed(OutboxEntry claim, int outcome);

  /**
   * The due rows to claim: at most {@code limit}, and only while their payloads fit
   * {@code maxPayloadBytes} (the database sums the sizes, so the payloads of rows left out are never
   * sent). On a database whose locks and subqueries do not mix, the ids are read first without locks
   * and their rows locked next ({@link SqlDialect#checksKeysWhileLocking}).
   */
  private List<OutboxEntry> dueRows(Connection connection, Instant now, int limit, long maxPayloadBytes)
      throws SQLException {
    if (locksRows()) {
      dialect.steerDueQuery(connection);
    }
    if (locksRows() && !dialect.checksKeysWhileLocking()) {
      List<String> ids = steered(limit, (kind, scanKeys, into) ->
          readIds(connection, DueQueries.ids(dialect, kind), now, limit, scanKeys, maxPayloadBytes, into));
      return lockedByIds(connection, now, ids);
    }
    boolean limited = maxPayloadBytes != StoreArguments.NO_PAYLOAD_LIMIT;
    return steered(limit, (kind, scanKeys, into) -> readRows(connection,
        DueQueries.rows(dialect, kind, locksRows(), limited), now, limit, scanKeys, maxPayloadBytes, into));
  }

  /** One due query of a given kind, its rows (or ids) added to {@code into}. */
  @FunctionalInterface
  private interface DueRead<T> {
    Seen read(DueQueries.Kind kind, boolean scanKeys, List<T> into) throws SQLException;
  }

  /**
   * Runs the due query the steering picks: the query for unkeyed rows alone first while the outbox
   * has no keyed rows due, and, when it finds nothing, the query for all rows in the same
   * transaction ({@link ClaimQuerySteering}).
   */
  private <T> List<T> steered(int limit, DueRead<T> due) throws SQLException {
    if (steering.firstKind() == DueQueries.Kind.UNKEYED_ONLY) {
      List<T> unkeyed = new ArrayList<>();
      due.read(DueQueries.Kind.UNKEYED_ONLY, false, unkeyed);
      steering.unkeyedOnlyFound(unkeyed.size());
      if (!unkeyed.isEmpty()) {
        return unkeyed;
      }
    }
    boolean scanned = dialect.scansKeys() && steering.scanKeys();
    List<T> all = new ArrayList<>();
    Seen seen = due.read(DueQueries.Kind.ALL, scanned, all);
    steering.allFound(scanned, seen.keysFound(), seen.keyedDue(), all.size(), limit);
    return all;
  }

  /** What a due query said besides its rows: keys its scan found (-1: not said) and whether keyed rows are due. */
  private record Seen(int keysFound, boolean keyedDue) {}

  private Seen readRows(Connection connection, DueQueries.Query query, Instant now, int limit, boolean scanKeys,
      long maxPayloadBytes, List<OutboxEntry> due) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(query.sql())) {
      query.bind(select, dialect, now, limit, scanKeys, maxPayloadBytes);
      Seen seen = new Seen(-1, false);
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          due.add(EntryRows.read(rows, dialect));
          if (due.size() == 1) {
            seen = new Seen(rows.getInt(DueQueries.ROWS_KEYS_FOUND), rows.getInt(DueQueries.ROWS_KEYED_DUE) == 1);
          }
        }
      }
      return seen;
    }
  }

  /** The claimable ids with their payload sizes, read without locks; kept while the sizes fit. */
  private Seen readIds(Connection connection, DueQueries.Query query, Instant now, int limit, boolean scanKeys,
      long maxPayloadBytes, List<String> ids) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(query.sql())) {
      query.bind(select, dialect, now, limit, scanKeys, maxPayloadBytes);
      PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
      Seen seen = new Seen(-1, false);
      try (ResultSet rows = select.executeQuery()) {
        boolean first = true;
        while (rows.next()) {
          if (first) {
            seen = new Seen(rows.getInt(DueQueries.IDS_KEYS_FOUND), rows.getInt(DueQueries.IDS_KEYED_DUE) == 1);
            first = false;
          }
          if (!budget.take(rows.getLong(DueQueries.IDS_PAYLOAD_SIZE))) {
            break;
          }
          ids.add(rows.getString(DueQueries.IDS_ID));
        }
      }
      return seen;
    }
  }

  private List<OutboxEntry> lockedByIds(Connection connection, Instant now, List<String> ids) throws SQLException {
    if (ids.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement select = connection.prepareStatement(EntryRows.lockDueQuery(ids.size()))) {
      for (int i = 0; i < ids.size(); i++) {
        select.setString(i + 1, ids.get(i));
      }
      dialect.setInstant(select, ids.size() + 1, now);
      return read(select);
    }
  }

  private List<OutboxEntry> read(PreparedStatement select) throws SQLException {
    List<OutboxEntry> due = new ArrayList<>();
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        due.add(EntryRows.read(rows, dialect));
      }
    }
    return due;
  }
}
