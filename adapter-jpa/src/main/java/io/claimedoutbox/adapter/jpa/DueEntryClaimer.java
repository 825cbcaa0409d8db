package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.spi.ClaimStorage;
import io.claimedoutbox.port.spi.ClaimWrite;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL store's claim primitives for {@link ClaimKernel}, in one of two ways (see
 * {@link ClaimLocking}). Both read the due rows that are first of their ordering keys in one
 * statement (two on MariaDB, see {@link SqlDialect#checksKeysWhileLocking}) and write all claims in
 * one round trip ({@link RowWriter}), so a batch costs the same few round trips whatever its size.
 * Claims of entries the caller chose (appended, the heads of keys) write in one statement where that
 * is atomic (PostgreSQL), else in a transaction of their own, and are never repeated after a broken
 * connection: a second try could not tell its own claim from a rival's.
 */
abstract class DueEntryClaimer implements ClaimStorage {

  final JdbcAccess jdbc;
  private final SqlDialect dialect;
  private final RowWriter writer;
  private final ClaimQuerySteering steering = new ClaimQuerySteering();

  DueEntryClaimer(JdbcAccess jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.writer = RowWriter.of(dialect);
  }

  @Override
  public final <T> T inUnit(Purpose purpose, String what, UnitWork<T> work) {
    JdbcAccess.Work<T> unit = connection -> {
      try {
        return work.run(new ConnectionUnit(connection, purpose));
      } catch (SqlFailure failure) {
        throw failure.getCause();
      }
    };
    try {
      if (purpose == Purpose.DUE) {
        return run(unit);
      }
      return writer.isOneStatement() ? jdbc.autoCommitted(Repeat.ONCE, unit) : jdbc.inTransaction(Repeat.ONCE, unit);
    } catch (SQLException | RuntimeException failure) {
      throw JdbcAccess.failure(what, failure);
    }
  }

  @Override
  public final List<OutboxEntry> firstUnfinishedOfKeys(List<String> keys) {
    try {
      return jdbc.autoCommitted(Repeat.SAFE, connection -> EntryRows.firstUnfinishedOfKeys(connection, keys, dialect));
    } catch (SQLException failure) {
      String which = keys.size() == 1 ? keys.get(0) : keys.size() + " ordering keys";
      throw JdbcAccess.failure("read the next entry of " + which, failure);
    }
  }

  @Override
  public final boolean claimsAppended() {
    return true;
  }

  /** A {@link SQLException} through the kernel's unchecked calls, unwrapped where the unit ends. */
  private static final class SqlFailure extends RuntimeException {
    SqlFailure(SQLException cause) {
      super(cause);
    }

    @Override
    public synchronized SQLException getCause() {
      return (SQLException) super.getCause();
    }
  }

  /** The reads and writes of one claim, on the unit's connection. */
  private final class ConnectionUnit implements Unit {
    private final Connection connection;
    private final Purpose purpose;

    ConnectionUnit(Connection connection, Purpose purpose) {
      this.connection = connection;
      this.purpose = purpose;
    }

    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes) {
      try {
        return dueRows(connection, now, maxEntries, maxPayloadBytes);
      } catch (SQLException failure) {
        throw new SqlFailure(failure);
      }
    }

    @Override
    public List<WriteAnswer> writeClaims(List<ClaimWrite> writes) {
      List<RowWriter.RowWrite> rows = new ArrayList<>(writes.size());
      for (ClaimWrite write : writes) {
        rows.add(new RowWriter.RowWrite(write.candidate(), write.claimed(), null));
      }
      int[] outcomes;
      try {
        outcomes = writer.write(connection, rows);
      } catch (SQLException failure) {
        throw new SqlFailure(failure);
      }
      List<WriteAnswer> answers = new ArrayList<>(outcomes.length);
      for (int i = 0; i < outcomes.length; i++) {
        if (outcomes[i] == RowWriter.NOT_MATCHED && purpose == Purpose.DUE && locksRows()) {
          throw new IllegalStateException("bug: locked row " + writes.get(i).candidate().id() + " changed under its lock");
        }
        answers.add(RowWriter.answer(outcomes[i]));
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      try {
        return EntryRows.find(connection, id, dialect);
      } catch (SQLException failure) {
        throw new SqlFailure(failure);
      }
    }
  }

  /** Runs the claim: in one locking transaction, or statement by statement. */
  abstract <T> T run(JdbcAccess.Work<T> work) throws SQLException;

  /** @return whether the due rows are read with {@code FOR UPDATE SKIP LOCKED} */
  abstract boolean locksRows();

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
