package io.claimedoutbox.adapter.jpa;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Where the store's own statements get their connections: the caller's {@link DataSource}, or the
 * connection provider of a JPA provider's factory ({@link HibernateBridge}), which may pool them its
 * own way and so takes each back itself.
 */
interface ConnectionSource {

  /** @return a connection for one unit of work */
  Connection borrow() throws SQLException;

  /** Gives a borrowed connection back (to its pool, or closes it). */
  void giveBack(Connection connection) throws SQLException;

  /**
   * @return the pool behind the connections, so a server restart's broken ones can be cleared from
   *     it ({@link PoolRecovery}); {@code null} when it cannot be reached
   */
  DataSource pool();

  /**
   * @param dataSource the caller's data source (a pool, as a rule)
   * @return connections borrowed from it and closed after each unit of work
   */
  static ConnectionSource of(DataSource dataSource) {
    return new ConnectionSource() {
      @Override
      public Connection borrow() throws SQLException {
        return dataSource.getConnection();
      }

      @Override
      public void giveBack(Connection connection) throws SQLException {
        connection.close();
      }

      @Override
      public DataSource pool() {
        return dataSource;
      }
    };
  }
}
