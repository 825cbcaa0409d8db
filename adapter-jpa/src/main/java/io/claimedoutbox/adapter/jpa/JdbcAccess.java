package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.port.OutboxStoreException;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;
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

  /** How often work the database rolled back for a deadlock is tried in all. */
  private static final int DEADLOCK_ATTEMPTS = 3;

  /**
   * SQL states of "the database rolled this back because of a concurrent transaction": serialization
   * failure (MariaDB and MySQL report deadlocks so), PostgreSQL deadlock, H2 concurrent update.
   */
  private static final Set<String> ROLLED_BACK_STATES = Set.of("40001", "40P01", "90131");

  private final ConnectionProvider connections;

  JdbcAccess(EntityManagerFactory factory) {
    this.connections = factory.unwrap(SessionFactoryImplementor.class)
        .getServiceRegistry().requireService(ConnectionProvider.class);
  }

  /**
   * Runs {@code work} with every statement committed on its own (one round trip per statement). A
   * statement the database rolled back as a deadlock victim is run again (the work is written to be
   * repeatable: its writes are checked against revisions and carry their write stamps).
   */
  <T> T autoCommitted(Work<T> work) throws SQLException {
    return retryingDeadlockVictims(() -> autoCommittedOnce(work));
  }

  private <T> T autoCommittedOnce(Work<T> work) throws SQLException {
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

  /**
   * Runs {@code work} in one transaction and commits; rolls back on any failure of the work. A
   * transaction the database rolled back as a deadlock victim is run again from the start.
   */
  <T> T inTransaction(Work<T> work) throws SQLException {
    return retryingDeadlockVictims(() -> inTransactionOnce(work));
  }

  /** Something run against the database, as a whole. */
  @FunctionalInterface
  private interface Attempt<T> {
    T run() throws SQLException;
  }

  private static <T> T retryingDeadlockVictims(Attempt<T> attempt) throws SQLException {
    for (int tried = 1; ; tried++) {
      try {
        return attempt.run();
      } catch (SQLException failure) {
        if (tried == DEADLOCK_ATTEMPTS || !isRolledBackByDatabase(failure)) {
          throw failure;
        }
      }
    }
  }

  private <T> T inTransactionOnce(Work<T> work) throws SQLException {
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

  static boolean isRolledBackByDatabase(SQLException failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql && ROLLED_BACK_STATES.contains(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  static OutboxStoreException failure(String what, Exception cause) {
    if (cause instanceof OutboxStoreException known) {
      return known;
    }
    return new OutboxStoreException("outbox store failed: " + what + ": " + cause.getMessage(), cause);
  }
}
