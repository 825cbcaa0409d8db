package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.port.OutboxStoreException;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * Connections for the store's own statements, borrowed from the connection provider of the
 * Hibernate factory (the application's pool), so the hot paths run plain JDBC without opening an
 * {@code EntityManager} per call.
 */
final class JdbcAccess {

  /** A unit of JDBC work on one connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  private final ConnectionProvider connections;

  JdbcAccess(EntityManagerFactory factory) {
    this.connections = factory.unwrap(SessionFactoryImplementor.class)
        .getServiceRegistry().requireService(ConnectionProvider.class);
  }

  /** Runs {@code work} with every statement committed on its own (one round trip per statement). */
  <T> T autoCommitted(Work<T> work) throws SQLException {
    Connection connection = connections.getConnection();
    try {
      boolean autoCommit = connection.getAutoCommit();
      if (!autoCommit) {
        connection.setAutoCommit(true);
      }
      try {
        return work.run(connection);
      } finally {
        if (!autoCommit) {
          connection.setAutoCommit(false);
        }
      }
    } finally {
      connections.closeConnection(connection);
    }
  }

  /** Runs {@code work} in one transaction and commits; rolls back on any failure of the work. */
  <T> T inTransaction(Work<T> work) throws SQLException {
    Connection connection = connections.getConnection();
    try {
      boolean autoCommit = connection.getAutoCommit();
      connection.setAutoCommit(false);
      try {
        T result;
        try {
          result = work.run(connection);
        } catch (SQLException | RuntimeException failure) {
          rollbackQuietly(connection, failure);
          throw failure;
        }
        connection.commit();
        return result;
      } finally {
        if (autoCommit) {
          restoreAutoCommit(connection);
        }
      }
    } finally {
      connections.closeConnection(connection);
    }
  }

  private static void rollbackQuietly(Connection connection, Exception original) {
    try {
      connection.rollback();
    } catch (SQLException rollbackFailure) {
      original.addSuppressed(rollbackFailure);
    }
  }

  private static void restoreAutoCommit(Connection connection) {
    try {
      connection.setAutoCommit(true);
    } catch (SQLException brokenConnection) {
      // the pool discards a broken connection; the caller already has the failure that matters
    }
  }

  static OutboxStoreException failure(String what, Exception cause) {
    if (cause instanceof OutboxStoreException known) {
      return known;
    }
    return new OutboxStoreException("outbox store failed: " + what + ": " + cause.getMessage(), cause);
  }
}
