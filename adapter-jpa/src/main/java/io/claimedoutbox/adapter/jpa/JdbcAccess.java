package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.port.OutboxStoreException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.util.Set;

/**
 * Connections for the store's own statements, borrowed from its {@link ConnectionSource} (the
 * application's pool), so the hot paths run plain JDBC.
 *
 * <p><b>After a server restart</b> a pool holds connections that are all broken. The first one to
 * fail makes {@link PoolRecovery} discard it and clear the pool's idle ones, so every later call
 * gets a fresh connection. Work that is {@linkplain Repeat#SAFE safe to repeat} (reads, claims,
 * transitions conditioned on a revision and carrying their write stamps) is then run again on a
 * fresh connection, so it does not fail at all; other work (appends, a requeue, a purge) fails once
 * with the driver's reason.
 */
final class JdbcAccess {

  /** A unit of JDBC work on one connection. */
  @FunctionalInterface
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Whether work may run again on a fresh connection when its connection broke under it. */
  enum Repeat {
    /**
     * Running it twice leaves what running it once would: a read, or writes conditioned on the
     * revision read whose effect a second run recognises by its write stamps.
     */
    SAFE,
    /** A second run could write twice, or misreport what the first did: it fails instead. */
    ONCE
  }

  /** How often work the database rolled back for a deadlock is tried in all. */
  private static final int DEADLOCK_ATTEMPTS = 3;

  /** How often safe work whose connection broke is tried in all (each on a fresh connection). */
  private static final int BROKEN_CONNECTION_ATTEMPTS = 3;

  /**
   * SQL states of "the database rolled this back because of a concurrent transaction": serialization
   * failure (MariaDB and MySQL report deadlocks so), PostgreSQL deadlock, H2 concurrent update.
   */
  private static final Set<String> ROLLED_BACK_STATES = Set.of("40001", "40P01", "90131");

  /**
   * SQL states of "this session is gone", besides the connection-exception class 08: PostgreSQL's
   * administrator shutdown, crash shutdown and "cannot connect now" (a server starting up).
   */
  private static final Set<String> SESSION_GONE_STATES = Set.of("57P01", "57P02", "57P03");

  private final ConnectionSource connections;
  private final PoolRecovery recovery;

  JdbcAccess(ConnectionSource connections) {
    this.connections = connections;
    this.recovery = PoolRecovery.of(connections.pool());
  }

  /**
   * Runs {@code work} with every statement committed on its own (one round trip per statement). A
   * statement the database rolled back as a deadlock victim is run again (the work is written to be
   * repeatable: its writes are checked against revisions and carry their write stamps).
   */
  <T> T autoCommitted(Repeat repeat, Work<T> work) throws SQLException {
    return retrying(repeat, () -> autoCommittedOnce(work));
  }

  /**
   * Runs {@code work} in one transaction and commits; rolls back on any failure of the work. A
   * transaction the database rolled back as a deadlock victim is run again from the start.
   */
  <T> T inTransaction(Repeat repeat, Work<T> work) throws SQLException {
    return retrying(repeat, () -> inTransactionOnce(work));
  }

  /**
   * A connection kept out of the pool for as long as the caller likes (a listening session), in
   * auto-commit mode; give it back with {@link #giveBack}.
   */
  Connection dedicated() throws SQLException {
    Connection connection = borrow();
    try {
      if (!connection.getAutoCommit()) {
        connection.setAutoCommit(true);
      }
      return connection;
    } catch (SQLException failure) {
      giveBack(connection);
      throw failure;
    }
  }

  /** Returns a {@link #dedicated} connection (a broken one is closed by the pool). */
  void giveBack(Connection connection) {
    try {
      connections.giveBack(connection);
    } catch (SQLException ignored) {
      // a broken listening connection: the pool has nothing more to take back
    }
  }

  /** Something run against the database, as a whole. */
  @FunctionalInterface
  private interface Attempt<T> {
    T run() throws SQLException;
  }

  private static <T> T retrying(Repeat repeat, Attempt<T> attempt) throws SQLException {
    int deadlocks = 0;
    int broken = 0;
    while (true) {
      try {
        return attempt.run();
      } catch (SQLException failure) {
        if (isRolledBackByDatabase(failure) && ++deadlocks < DEADLOCK_ATTEMPTS) {
          continue;
        }
        // a connection that could not be had at all (the server is down) is not worth asking for again at once
        if (repeat == Repeat.SAFE && !(failure instanceof NoConnection) && isBrokenConnection(failure)
            && ++broken < BROKEN_CONNECTION_ATTEMPTS) {
          continue;
        }
        throw failure;
      }
    }
  }

  private <T> T autoCommittedOnce(Work<T> work) throws SQLException {
    Connection connection = borrow();
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
    } catch (SQLException | RuntimeException failure) {
      noticeBroken(connection, failure);
      throw failure;
    } finally {
      connections.giveBack(connection);
    }
  }

  private <T> T inTransactionOnce(Work<T> work) throws SQLException {
    Connection connection = borrow();
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
    } catch (SQLException | RuntimeException failure) {
      noticeBroken(connection, failure);
      throw failure;
    } finally {
      connections.giveBack(connection);
    }
  }

  private Connection borrow() throws SQLException {
    try {
      return recovery.borrow(connections);
    } catch (SQLException unavailable) {
      throw new NoConnection(unavailable);
    }
  }

  /** The pool gave no connection: nothing was sent. Keeps the driver's words and state. */
  private static final class NoConnection extends SQLException {
    private static final long serialVersionUID = 1L;

    NoConnection(SQLException cause) {
      super(cause.getMessage(), cause.getSQLState(), cause.getErrorCode(), cause);
    }
  }

  private void noticeBroken(Connection connection, Exception failure) {
    if (failure instanceof SQLException sql && isBrokenConnection(sql)) {
      recovery.brokenConnection(connection);
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

  /** Whether the failure says the connection (the session) is gone, not that the statement was refused. */
  static boolean isBrokenConnection(SQLException failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      // not SQLTransientConnectionException: a pool's "no connection available in time" says nothing of the server
      if (cause instanceof SQLNonTransientConnectionException || cause instanceof SQLRecoverableException) {
        return true;
      }
      if (cause instanceof SQLException sql && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || SESSION_GONE_STATES.contains(sql.getSQLState()))) {
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
