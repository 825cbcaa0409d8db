package io.claimedoutbox.adapter.jpa.testkit;

import io.claimedoutbox.conformance.RawCompareAndSet;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** A plain versioned update on a table of its own: what a hand-written compare-and-set costs. */
final class JdbcRawCompareAndSet implements RawCompareAndSet {

  private final DataSource dataSource;

  private JdbcRawCompareAndSet(DataSource dataSource) {
    this.dataSource = dataSource;
  }

  static JdbcRawCompareAndSet prepare(DataSource dataSource, int keys) {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS raw_cas");
      statement.execute("CREATE TABLE raw_cas (id INTEGER PRIMARY KEY, v BIGINT NOT NULL)");
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO raw_cas (id, v) VALUES (?, 0)")) {
        for (int key = 0; key < keys; key++) {
          insert.setInt(1, key);
          insert.addBatch();
        }
        insert.executeBatch();
      }
    } catch (SQLException failure) {
      throw new IllegalStateException("cannot prepare the raw compare-and-set table", failure);
    }
    return new JdbcRawCompareAndSet(dataSource);
  }

  @Override
  public boolean compareAndSet(int key, long expected) {
    try (Connection connection = dataSource.getConnection();
        PreparedStatement update = connection.prepareStatement("UPDATE raw_cas SET v = v + 1 WHERE id = ? AND v = ?")) {
      update.setInt(1, key);
      update.setLong(2, expected);
      return update.executeUpdate() == 1;
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public void close() {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS raw_cas");
    } catch (SQLException failure) {
      throw new IllegalStateException("cannot drop the raw compare-and-set table", failure);
    }
  }
}
