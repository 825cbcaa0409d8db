package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JPA adapter: a batch of result writes finds its rows by the primary key however stale the statistics (PostgreSQL)")
class BatchWritePlanTest {

  private final JpaTestKit kit = JpaFixtures.of(TestDatabase.POSTGRESQL);

  @BeforeEach
  void cleanStore() {
    kit.fixture().clean();
  }

  @Test
  @DisplayName("vacuumed and analysed while empty, then 5,000 appends: a transition batch of 250 writes every row and scans no table")
  void transitionBatchReadsNoTable() throws SQLException {
    List<RowWriter.RowWrite> writes = heldEntriesAfterBurst(250);
    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      try {
        long scansBefore = sequentialScansInThisTransaction(connection);

        writeExpectingEveryRowWritten(connection, writes);

        assertThat(sequentialScansInThisTransaction(connection) - scansBefore)
            .as("sequential scans of outbox_entry by the batch write").isZero();
      } finally {
        connection.rollback();
      }
    }
  }

  @Test
  @DisplayName("autocommitted, a transition batch writes every row and leaves the connection's own settings as they were")
  void autocommittedBatchLeavesTheSessionAlone() throws SQLException {
    List<RowWriter.RowWrite> writes = heldEntriesAfterBurst(250);
    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(true);

      writeExpectingEveryRowWritten(connection, writes);

      assertThat(setting(connection, "SHOW enable_seqscan")).as("enable_seqscan after the write").isEqualTo("on");
      try (Connection untouched = kit.dataSource().getConnection()) {
        assertThat(setting(connection, "SHOW jit")).as("jit after the write").isEqualTo(setting(untouched, "SHOW jit"));
      }
    }
  }

  @Test
  @DisplayName("the steering sent before an autocommitted statement in the same round trip holds for that statement")
  void steeringHoldsForTheAutocommittedStatementAfterIt() throws SQLException {
    try (Connection connection = kit.dataSource().getConnection();
        PreparedStatement steered = connection.prepareStatement(
            SqlDialect.STEER_TO_INDEXES + "; SELECT current_setting('enable_seqscan'), current_setting('jit')")) {
      connection.setAutoCommit(true);
      steered.execute();
      assertThat(steered.getMoreResults()).as("the second statement's result").isTrue();
      try (ResultSet settings = steered.getResultSet()) {
        assertThat(settings.next()).isTrue();
        assertThat(Arrays.asList(settings.getString(1), settings.getString(2)))
            .as("enable_seqscan and jit as the statement saw them").containsExactly("off", "off");
      }
      assertThat(setting(connection, "SHOW enable_seqscan")).as("enable_seqscan afterwards").isEqualTo("on");
    }
  }

  /**
   * The case that went wrong: statistics taken while the table was empty, then a burst, then the
   * claimed half of a batch written back under its claims (the shape of a delivery batch).
   */
  private List<RowWriter.RowWrite> heldEntriesAfterBurst(int held) throws SQLException {
    try (Connection connection = kit.dataSource().getConnection(); Statement statement = connection.createStatement()) {
      // what autovacuum leaves after a drained outbox's rows were purged: no pages, no rows
      statement.execute("TRUNCATE outbox_entry");
      statement.execute("VACUUM ANALYZE outbox_entry");
    }
    JpaOutboxStore store = JpaOutboxStore.builder(kit.entityManagerFactory()).build();
    List<OutboxMessage> burst = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      burst.add(OutboxMessage.of("t", new byte[] {(byte) i}));
    }
    store.appendAll(burst);
    List<Claim> claims = store.claimDue(WorkerId.of("plan-test"), held, Duration.ofMinutes(5));
    assertThat(claims).as("claims to write back").hasSize(held);
    List<RowWriter.RowWrite> writes = new ArrayList<>();
    for (Claim claim : claims) {
      OutboxEntry snapshot = claim.snapshot();
      OutboxEntry next = snapshot.toBuilder().revision(snapshot.revision() + 1).build();
      writes.add(new RowWriter.RowWrite(snapshot, next, claim));
    }
    return writes;
  }

  private static void writeExpectingEveryRowWritten(Connection connection, List<RowWriter.RowWrite> writes)
      throws SQLException {
    int[] outcomes = new ArrayRowWriter().write(connection, writes);
    assertThat(outcomes).as("each row's outcome").containsOnly(RowWriter.WRITTEN).hasSize(writes.size());
  }

  private static long sequentialScansInThisTransaction(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet scans = statement.executeQuery(
            "SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relid = 'outbox_entry'::regclass")) {
      assertThat(scans.next()).as("the table's statistics row").isTrue();
      return scans.getLong(1);
    }
  }

  private static String setting(Connection connection, String show) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet value = statement.executeQuery(show)) {
      value.next();
      return value.getString(1);
    }
  }
}
