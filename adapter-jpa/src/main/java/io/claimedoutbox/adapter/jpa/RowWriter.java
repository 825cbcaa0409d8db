package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Writes many entries in one round trip, each only where its row is still at the revision the
 * caller saw (and, for a transition, still held under the caller's claim). The entries' new state
 * is computed by the domain; the database only stores it.
 *
 * <p>PostgreSQL gets one set-based statement over arrays ({@code UPDATE … FROM unnest(…) …
 * RETURNING id}): one statement to plan and run for the whole batch instead of one per row, with
 * the same SQL text for every batch size. Other databases get a JDBC batch of
 * {@link EntryRows#WRITE} or {@link EntryRows#TRANSITION}, one update count per row.
 */
abstract class RowWriter {

  /** What one element writes: the new entry, the revision it replaces, the claim that must hold it. */
  record RowWrite(OutboxEntry written, long expectedRevision, Claim heldBy) {}

  /** This row was written. */
  static final int WRITTEN = 1;
  /** The row was not at the expected state: nothing written. */
  static final int NOT_MATCHED = 0;
  /** The database did not say (a driver's bulk mode): decide from the row. */
  static final int UNKNOWN = Statement.SUCCESS_NO_INFO;

  static RowWriter of(SqlDialect dialect) {
    return dialect == SqlDialect.POSTGRESQL ? new ArrayWriter() : new BatchWriter(dialect);
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

  private static final class BatchWriter extends RowWriter {
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
            EntryRows.bindTransition(write, row.written(), row.heldBy(), dialect);
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

  private static final class ArrayWriter extends RowWriter {
    private static final String SET = "UPDATE outbox_entry e SET status = v.status, attempts = v.attempts,"
        + " available_at = v.available_at, due_at = v.due_at, claim_generation = v.claim_generation,"
        + " claim_owner = v.claim_owner, token_nonce = v.token_nonce, claimed_at = v.claimed_at,"
        + " lease_until = v.lease_until, last_error = v.last_error, progress = v.progress,"
        + " delivery_receipt = v.delivery_receipt, updated_at = v.updated_at, write_stamp = v.write_stamp,"
        + " revision = v.revision"
        + " FROM unnest(?::text[], ?::int4[], ?::text[]::timestamptz[], ?::text[]::timestamptz[], ?::int8[],"
        + " ?::text[], ?::text[], ?::text[]::timestamptz[], ?::text[]::timestamptz[], ?::text[], ?::text[],"
        + " ?::text[], ?::text[]::timestamptz[], ?::text[], ?::int8[], ?::text[], ?::int8[], ?::text[], ?::text[])"
        + " AS v(status, attempts, available_at, due_at, claim_generation, claim_owner, token_nonce, claimed_at,"
        + " lease_until, last_error, progress, delivery_receipt, updated_at, write_stamp, revision, id,"
        + " expected_revision, held_owner, held_nonce)"
        + " WHERE e.id = v.id AND e.revision = v.expected_revision";
    private static final String WRITE = SET + " RETURNING e.id";
    private static final String TRANSITION = SET
        + " AND e.status = 'CLAIMED' AND e.claim_owner = v.held_owner AND e.token_nonce = v.held_nonce RETURNING e.id";

    private final RowWriter single = new BatchWriter(SqlDialect.POSTGRESQL);

    @Override
    boolean isOneStatement() {
      return true;
    }

    @Override
    int[] write(Connection connection, List<RowWrite> writes) throws SQLException {
      if (writes.size() == 1) {
        // one row: the plain conditional UPDATE, which plans faster than one over arrays
        return single.write(connection, writes);
      }
      return writeArrays(connection, writes);
    }

    private int[] writeArrays(Connection connection, List<RowWrite> writes) throws SQLException {
      boolean transitions = writes.get(0).heldBy() != null;
      try (PreparedStatement update = connection.prepareStatement(transitions ? TRANSITION : WRITE)) {
        int column = 1;
        update.setArray(column++, texts(connection, writes, row -> row.written().status().name()));
        update.setArray(column++, connection.createArrayOf("int4",
            writes.stream().map(row -> row.written().attempts()).toArray()));
        update.setArray(column++, instants(connection, writes, row -> row.written().availableAt()));
        update.setArray(column++, instants(connection, writes, row -> row.written().dueAt().orElse(null)));
        update.setArray(column++, connection.createArrayOf("int8",
            writes.stream().map(row -> row.written().claimGeneration()).toArray()));
        update.setArray(column++, texts(connection, writes, row -> held(row).map(c -> c.owner().value()).orElse(null)));
        update.setArray(column++, texts(connection, writes,
            row -> held(row).map(c -> c.token().nonce().toString()).orElse(null)));
        update.setArray(column++, instants(connection, writes, row -> held(row).map(CurrentClaim::claimedAt).orElse(null)));
        update.setArray(column++, instants(connection, writes, row -> held(row).map(CurrentClaim::leaseUntil).orElse(null)));
        update.setArray(column++, texts(connection, writes, row -> row.written().lastError().orElse(null)));
        update.setArray(column++, texts(connection, writes, row -> row.written().progress().orElse(null)));
        update.setArray(column++, texts(connection, writes, row -> row.written().deliveryReceipt().orElse(null)));
        update.setArray(column++, instants(connection, writes, row -> row.written().updatedAt()));
        update.setArray(column++, texts(connection, writes,
            row -> row.written().lastWriteStamp().map(WriteStamp::toString).orElse(null)));
        update.setArray(column++, connection.createArrayOf("int8",
            writes.stream().map(row -> row.written().revision()).toArray()));
        update.setArray(column++, texts(connection, writes, row -> row.written().id().value()));
        update.setArray(column++, connection.createArrayOf("int8",
            writes.stream().map(RowWrite::expectedRevision).toArray()));
        update.setArray(column++, texts(connection, writes,
            row -> row.heldBy() == null ? null : row.heldBy().owner().value()));
        update.setArray(column, texts(connection, writes,
            row -> row.heldBy() == null ? null : row.heldBy().token().nonce().toString()));
        Set<String> written = new HashSet<>();
        try (ResultSet ids = update.executeQuery()) {
          while (ids.next()) {
            written.add(ids.getString(1));
          }
        }
        int[] outcomes = new int[writes.size()];
        for (int i = 0; i < outcomes.length; i++) {
          outcomes[i] = written.contains(writes.get(i).written().id().value()) ? WRITTEN : NOT_MATCHED;
        }
        return outcomes;
      }
    }

    private static java.util.Optional<CurrentClaim> held(RowWrite row) {
      return row.written().currentClaim();
    }

    private static Array texts(Connection connection, List<RowWrite> writes, Function<RowWrite, String> value)
        throws SQLException {
      return connection.createArrayOf("text", writes.stream().map(value).toArray());
    }

    private static Array instants(Connection connection, List<RowWrite> writes, Function<RowWrite, Instant> value)
        throws SQLException {
      return connection.createArrayOf("text", writes.stream().map(value)
          .map(instant -> instant == null ? null : instant.toString()).toArray());
    }
  }
}
