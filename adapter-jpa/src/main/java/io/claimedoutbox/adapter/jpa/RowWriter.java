package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * Writes many entries in one round trip, each only where its row is still at the revision the
 * caller saw (and, for a transition, still held under the caller's claim). The entries' new state
 * is computed by the domain; the database only stores it.
 *
 * <p>PostgreSQL and MariaDB get one set-based statement for the whole batch ({@link SetRowWriter}:
 * over arrays, over {@code JSON_TABLE}): one statement to parse and run instead of one per row. Other
 * databases get a JDBC batch of {@link EntryRows#WRITE} or {@link EntryRows#TRANSITION}, one update
 * count per row.
 */
abstract class RowWriter {

  /**
   * What one element writes: the entry it was computed from, the new entry, the claim that must hold
   * it (null for a claim's own write). Every write raises the revision, so a row still at
   * {@code basis}'s revision holds exactly {@code basis}: a writer may leave a column that
   * {@code written} does not change as it is stored.
   */
  record RowWrite(OutboxEntry basis, OutboxEntry written, Claim heldBy) {

    /** The revision the row must still be at to be written. */
    long expectedRevision() {
      return basis.revision();
    }
  }

  /** This row was written. */
  static final int WRITTEN = 1;
  /** The row was not at the expected state: nothing written. */
  static final int NOT_MATCHED = 0;
  /** The database did not say (a driver's bulk mode): decide from the row. */
  static final int UNKNOWN = Statement.SUCCESS_NO_INFO;

  /** @return what the kernels call an element's outcome */
  static WriteAnswer answer(int outcome) {
    return switch (outcome) {
      case WRITTEN -> WriteAnswer.WRITTEN;
      case NOT_MATCHED -> WriteAnswer.NOT_WRITTEN;
      default -> WriteAnswer.UNSAID;
    };
  }

  static RowWriter of(SqlDialect dialect) {
    return switch (dialect) {
      case POSTGRESQL -> new ArrayRowWriter();
      case MARIADB -> new JsonTableRowWriter();
      default -> new BatchWriter(dialect);
    };
  }

  /**
   * @return per element {@link #WRITTEN}, {@link #NOT_MATCHED} or {@link #UNKNOWN}
   */
  abstract int[] write(Connection connection, List<RowWrite> writes) throws SQLException;

  /**
   * Whether many writes are one statement, atomic even with autocommit. When not, a batch runs in a
   * transaction of its own: one commit (one log flush) for the batch instead of one per row.
   */
  abstract boolean isOneStatement();

  /** One {@link EntryRows#WRITE} or {@link EntryRows#TRANSITION} per row, sent as one JDBC batch. */
  static final class BatchWriter extends RowWriter {
    private final SqlDialect dialect;

    BatchWriter(SqlDialect dialect) {
      this.dialect = dialect;
    }

    @Override
    boolean isOneStatement() {
      return false;
    }

    @Override
    int[] write(Connection connection, List<RowWrite> writes) throws SQLException {
      boolean transitions = writes.get(0).heldBy() != null;
      try (PreparedStatement write = connection.prepareStatement(transitions ? EntryRows.TRANSITION : EntryRows.WRITE)) {
        for (RowWrite row : writes) {
          if (transitions) {
            EntryRows.bindTransition(write, row.written(), row.expectedRevision(), row.heldBy(), dialect);
          } else {
            EntryRows.bindWrite(write, row.written(), row.expectedRevision(), dialect);
          }
          if (writes.size() > 1) {
            write.addBatch();
          }
        }
        int[] counts = writes.size() == 1 ? new int[] {write.executeUpdate()} : write.executeBatch();
        for (int i = 0; i < counts.length; i++) {
          counts[i] = counts[i] == 1 ? WRITTEN : counts[i] == 0 ? NOT_MATCHED : UNKNOWN;
        }
        return counts;
      }
    }
  }
}
