package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.benchmarks.BenchDatabase;
import java.nio.ByteBuffer;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

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

  /** @return the payload carrying {@code sequence} */
  static byte[] payload(long sequence) {
    return ByteBuffer.allocate(Long.BYTES).putLong(sequence).array();
  }

  static long sequenceOf(byte[] payload) {
    return ByteBuffer.wrap(payload).getLong();
  }
}
