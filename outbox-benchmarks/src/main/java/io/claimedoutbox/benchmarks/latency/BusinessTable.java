package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.PendingAppend;
import io.claimedoutbox.benchmarks.BenchDatabase;
import io.claimedoutbox.domain.OutboxMessage;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/** The business table each measured transaction inserts a row into, beside its outbox entry. */
final class BusinessTable {

  static final String INSERT = "INSERT INTO bench_orders (note) VALUES (?)";

  private BusinessTable() {}

  static void create(BenchDatabase database) throws SQLException {
    database.execute("DROP TABLE IF EXISTS bench_orders");
    database.execute(database.isPostgreSql()
        ? "CREATE TABLE bench_orders (id BIGSERIAL PRIMARY KEY, note VARCHAR(100) NOT NULL)"
        : "CREATE TABLE bench_orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, note VARCHAR(100) NOT NULL)");
  }

  static void insert(Connection connection, long sequence) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
      insert.setString(1, "order " + sequence);
      insert.executeUpdate();
    }
  }

  /**
   * One business transaction as a JDBC application writes it: the business row and its entry on one
   * connection, committed, then the commit reported to the store ({@code beginAppendOn}), or the
   * rollback reported when it fails.
   */
  static void commitWithEntry(DataSource dataSource, JpaOutboxStore store, long sequence) throws SQLException {
    PendingAppend appended = null;
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try {
        insert(connection, sequence);
        appended = store.beginAppendOn(connection, List.of(OutboxMessage.of("order-placed", payload(sequence))));
        connection.commit();
      } catch (SQLException | RuntimeException failure) {
        connection.rollback();
        if (appended != null) {
          appended.rolledBack();
        }
        throw failure;
      } finally {
        connection.setAutoCommit(true);
      }
    }
    appended.committed();
  }

  /** @return the payload carrying {@code sequence} */
  static byte[] payload(long sequence) {
    return ByteBuffer.allocate(Long.BYTES).putLong(sequence).array();
  }

  static long sequenceOf(byte[] payload) {
    return ByteBuffer.wrap(payload).getLong();
  }
}
