package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.ConditionalWrites;
import io.claimedoutbox.port.spi.WriteAnswer;
import io.claimedoutbox.port.spi.WriteOutcomeUnknownException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The SQL primitives the transition kernel decides over: a whole batch of conditional updates in
 * one round trip ({@link RowWriter}: one set-based statement on PostgreSQL, one autocommitted
 * update for a single row, otherwise a JDBC batch with its one commit), and reads by id.
 *
 * <p>Every failure of a write is reported as a lost answer: the statement or its commit may have
 * reached the database before the connection broke, and only the row read again can tell.
 */
final class SqlConditionalWrites implements ConditionalWrites {

  private final JdbcAccess jdbc;
  private final SqlDialect dialect;
  private final RowWriter writer;

  SqlConditionalWrites(JdbcAccess jdbc, SqlDialect dialect) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.writer = RowWriter.of(dialect);
  }

  @Override
  public List<WriteAnswer> writeAll(List<ConditionalWrite> writes) {
    List<RowWriter.RowWrite> rows = new ArrayList<>(writes.size());
    for (ConditionalWrite write : writes) {
      rows.add(new RowWriter.RowWrite(write.basis(), write.next(), write.claim()));
    }
    int[] outcomes;
    try {
      outcomes = rows.size() == 1 || writer.isOneStatement()
          ? jdbc.autoCommitted(Repeat.SAFE, connection -> writer.write(connection, rows))
          : jdbc.inTransaction(Repeat.SAFE, connection -> writer.write(connection, rows));
    } catch (SQLException | RuntimeException failure) {
      throw new WriteOutcomeUnknownException("outbox store failed: " + ConditionalWrite.describe(writes) + ": "
          + failure.getMessage(), failure);
    }
    List<WriteAnswer> answers = new ArrayList<>(outcomes.length);
    for (int outcome : outcomes) {
      answers.add(RowWriter.answer(outcome));
    }
    return answers;
  }

  @Override
  public Optional<OutboxEntry> read(EntryId id) {
    try {
      return jdbc.autoCommitted(Repeat.SAFE, connection -> EntryRows.find(connection, id, dialect));
    } catch (SQLException failure) {
      throw JdbcAccess.failure("find " + id, failure);
    }
  }
}
