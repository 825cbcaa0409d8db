package io.claimedoutbox.adapter.jpa;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.sql.DataSource;

/**
 * What the store does to its pool once a connection turned out broken (a server restart, a cut
 * network, a killed session): every other idle connection of that pool is probably broken too, and
 * handing them out one by one would fail one call after another.
 *
 * <ul>
 *   <li>the broken connection is discarded, never given back to the pool as if healthy;
 *   <li>HikariCP's idle connections are closed at once (soft eviction: those in use are closed when
 *       returned), so the next borrow opens a fresh one;
 *   <li>with any pool, for {@link #SUSPICION} after a broken connection every borrowed connection is
 *       checked ({@code isValid}) before use, and one that fails the check is discarded and another
 *       borrowed.
 * </ul>
 *
 * <p>Outside that window borrowing costs nothing extra. Thread-safe.
 */
final class PoolRecovery {

  /** How long after a broken connection borrowed connections are checked before use. */
  static final Duration SUSPICION = Duration.ofSeconds(10);

  /** The most connections checked and discarded for one borrow: more than any pool's idle connections. */
  private static final int MAX_DISCARDED_PER_BORROW = 64;

  private static final int VALIDATION_TIMEOUT_SECONDS = 2;

  private final DataSource hikari;
  private final LongSupplier nanoTime;
  /** Until when (on {@link System#nanoTime}'s scale) borrowed connections are checked; in the past when not suspect. */
  private final AtomicLong suspectUntil;

  private PoolRecovery(DataSource hikari, LongSupplier nanoTime) {
    this.hikari = hikari;
    this.nanoTime = nanoTime;
    this.suspectUntil = new AtomicLong(nanoTime.getAsLong());
  }

  /**
   * @param pool the application's data source, if the connection provider exposes it
   * @return the recovery for that pool
   */
  static PoolRecovery of(DataSource pool) {
    return new PoolRecovery(HikariPresence.unwrap(pool), System::nanoTime);
  }

  /** A connection failed as broken: discard it and make the pool's other connections prove themselves. */
  void brokenConnection(Connection broken) {
    suspectUntil.set(nanoTime.getAsLong() + SUSPICION.toNanos());
    discard(broken);
    if (hikari != null) {
      HikariPresence.dropIdle(hikari);
    }
  }

  /**
   * @param connections the pool's connections
   * @return a connection; checked first while the pool is suspect
   */
  Connection borrow(ConnectionSource connections) throws SQLException {
    Connection connection = connections.borrow();
    if (!isSuspect()) {
      return connection;
    }
    for (int discarded = 0; discarded < MAX_DISCARDED_PER_BORROW; discarded++) {
      if (isValid(connection)) {
        return connection;
      }
      discard(connection);
      connections.giveBack(connection);
      connection = connections.borrow();
    }
    return connection;
  }

  /** Whether the pool met a broken connection less than {@link #SUSPICION} ago (nanoTime differences, as the JDK asks). */
  boolean isSuspect() {
    return suspectUntil.get() - nanoTime.getAsLong() > 0;
  }

  private static boolean isValid(Connection connection) {
    try {
      return connection.isValid(VALIDATION_TIMEOUT_SECONDS);
    } catch (SQLException unusable) {
      return false;
    }
  }

  /** Closes the physical connection so no pool can hand it out again; HikariCP evicts its proxy. */
  private void discard(Connection connection) {
    if (hikari != null && HikariPresence.evict(hikari, connection)) {
      return;
    }
    try {
      connection.abort(Runnable::run);
    } catch (SQLException | RuntimeException alreadyGone) {
      // the connection is unusable either way; the caller has the failure that matters
    }
  }

  /** HikariCP, only when it is on the class path (an optional dependency). */
  private static final class HikariPresence {
    private static final boolean PRESENT = isPresent();

    private static boolean isPresent() {
      try {
        Class.forName("com.zaxxer.hikari.HikariDataSource", false, PoolRecovery.class.getClassLoader());
        return true;
      } catch (ClassNotFoundException | LinkageError absent) {
        return false;
      }
    }

    static DataSource unwrap(DataSource pool) {
      if (!PRESENT || pool == null) {
        return null;
      }
      try {
        return pool.isWrapperFor(HikariDataSource.class) ? pool.unwrap(HikariDataSource.class) : null;
      } catch (SQLException notHikari) {
        return null;
      }
    }

    static void dropIdle(DataSource hikari) {
      HikariDataSource pool = (HikariDataSource) hikari;
      if (!pool.isClosed() && pool.getHikariPoolMXBean() != null) {
        pool.getHikariPoolMXBean().softEvictConnections();
      }
    }

    static boolean evict(DataSource hikari, Connection connection) {
      HikariDataSource pool = (HikariDataSource) hikari;
      if (pool.isClosed() || !connection.getClass().getName().startsWith("com.zaxxer.hikari")) {
        return false;
      }
      pool.evictConnection(connection);
      return true;
    }
  }
}
