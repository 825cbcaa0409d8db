package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operator's statements ({@link io.claimedoutbox.port.OutboxOperations}) over the
 * {@code outbox_entry} table. They read through the due index or through the indexes of migration
 * V3, which hold only finished rows or dead letters: rows no claim reads, so a purge running
 * beside the drain never makes a claim wait.
 */
final class SqlOperations {

  private static final String COUNT = "SELECT status, COUNT(*) FROM outbox_entry GROUP BY status";
  private static final String REQUEUE = EntryRows.WRITE + " AND status = 'DEAD_LETTERED'";

  private final JdbcAccess jdbc;
  private final SqlDialect dialect;
  private final Clock clock;

  SqlOperations(JdbcAccess jdbc, SqlDialect dialect, Clock clock) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.clock = clock;
  }

  StatusCounts countByStatus() throws SQLException {
    return jdbc.autoCommitted(Repeat.SAFE, connection -> {
      Map<EntryStatus, Long> counts = new EnumMap<>(EntryStatus.class);
      try (PreparedStatement count = connection.prepareStatement(COUNT); ResultSet rows = count.executeQuery()) {
        while (rows.next()) {
          counts.put(EntryStatus.valueOf(rows.getString(1)), rows.getLong(2));
        }
      }
      return new StatusCounts(counts);
    });
  }

  /**
   * The earlier of the oldest due row without a key and the oldest with one, each the first entry of
   * its own due index ({@link SqlDialect#unkeyedDue}); LEAST over both, either of which may be NULL.
   */
  private String oldestDueQuery() {
    return "SELECT LEAST(COALESCE(u, k), COALESCE(k, u)) FROM (SELECT"
        + " (SELECT MIN(" + dialect.unkeyedDueColumn() + ") FROM outbox_entry WHERE " + dialect.unkeyedDue() + ") AS u,"
        + " (SELECT MIN(" + dialect.keyedDueColumn() + ") FROM outbox_entry WHERE " + dialect.keyedDue() + ") AS k) t";
  }

  Optional<Duration> oldestDueAge() throws SQLException {
    Instant now = clock.instant();
    return jdbc.autoCommitted(Repeat.SAFE, connection -> {
      try (PreparedStatement oldest = connection.prepareStatement(oldestDueQuery())) {
        dialect.setInstant(oldest, 1, now);
        dialect.setInstant(oldest, 2, now);
        try (ResultSet row = oldest.executeQuery()) {
          row.next();
          Instant due = row.getObject(1) == null ? null : dialect.getInstant(row, 1);
          return Optional.ofNullable(due).map(oldestDue -> Duration.between(oldestDue, now));
        }
      }
    });
  }

  List<OutboxEntry> deadLetters(DeadLetterQuery query) throws SQLException {
    String sql = "SELECT " + EntryRows.COLUMNS + " FROM outbox_entry WHERE " + dialect.deadLetterAfter()
        + (query.topic().isPresent() ? " AND topic = ?" : "") + " ORDER BY " + dialect.deadLetterOrder() + " LIMIT ?";
    return jdbc.autoCommitted(Repeat.SAFE, connection -> {
      try (PreparedStatement select = connection.prepareStatement(sql)) {
        int parameter = 1;
        select.setString(parameter++, query.after().map(EntryId::value).orElse(""));
        if (query.topic().isPresent()) {
          select.setString(parameter++, query.topic().get());
        }
        select.setInt(parameter, query.limit());
        List<OutboxEntry> letters = new ArrayList<>();
        try (ResultSet rows = select.executeQuery()) {
          while (rows.next()) {
            letters.add(EntryRows.read(rows, dialect));
          }
        }
        return letters;
      }
    });
  }

  RequeueResult requeue(EntryId id) throws SQLException {
    return jdbc.autoCommitted(Repeat.ONCE, connection -> {
      Optional<OutboxEntry> before = EntryRows.find(connection, id, dialect);
      boolean written = before.isPresent() && before.get().status() == EntryStatus.DEAD_LETTERED
          && write(connection, before.get(), before.get().requeued(clock.instant(), WriteStamp.fresh()));
      return RequeueResult.of(written, EntryRows.find(connection, id, dialect));
    });
  }

  private boolean write(Connection connection, OutboxEntry before, OutboxEntry requeued) throws SQLException {
    try (PreparedStatement update = connection.prepareStatement(REQUEUE)) {
      EntryRows.bindWrite(update, requeued, before.revision(), dialect);
      return update.executeUpdate() == 1;
    }
  }

  long countPurgeable(Duration olderThan) throws SQLException {
    Instant cutoff = clock.instant().minus(olderThan);
    return jdbc.autoCommitted(Repeat.SAFE, connection -> {
      try (PreparedStatement count = connection.prepareStatement(dialect.purgeableCount())) {
        dialect.setInstant(count, 1, cutoff);
        try (ResultSet row = count.executeQuery()) {
          row.next();
          return row.getLong(1);
        }
      }
    });
  }

  int purgeFinished(Duration olderThan, int batchSize) throws SQLException {
    Instant cutoff = clock.instant().minus(olderThan);
    return jdbc.autoCommitted(Repeat.ONCE, connection -> {
      try (PreparedStatement purge = connection.prepareStatement(dialect.purgeStatement())) {
        dialect.setInstant(purge, 1, cutoff);
        purge.setInt(2, batchSize);
        if (dialect.purgeRechecksCutoff()) {
          dialect.setInstant(purge, 3, cutoff);
        }
        return purge.executeUpdate();
      }
    });
  }
}
