package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.benchmarks.BenchDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * What an idle drain costs its store, read from the server's own counters: PostgreSQL's
 * committed and rolled-back transactions of the database (every statement of the drain is its own
 * transaction when idle), MariaDB's {@code Questions}, Redis' commands processed. The window is
 * measured once without our drain (the baseline: other clients, the counter's own reads) and once
 * with it, a few seconds after its start so its back-off has grown.
 */
final class IdleCost {

  private IdleCost() {}

  /** A server-wide counter of statements. */
  @FunctionalInterface
  interface Counter {
    long read() throws Exception;
  }

  static Counter of(BenchDatabase database) {
    String sql = database.isPostgreSql()
        ? "SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database WHERE datname = current_database()"
        : "SHOW GLOBAL STATUS LIKE 'Questions'";
    return () -> {
      try (Connection connection = database.dataSource().getConnection();
          Statement statement = connection.createStatement()) {
        if (database.isPostgreSql()) {
          // the statistics a backend keeps are flushed to the shared counters at most once a second
          // and when it goes idle: this read sees them as of the last flush
          statement.execute("SELECT pg_stat_clear_snapshot()");
        }
        try (ResultSet result = statement.executeQuery(sql)) {
          result.next();
          return result.getLong(database.isPostgreSql() ? 1 : 2);
        }
      } catch (SQLException failure) {
        throw new IllegalStateException(failure);
      }
    };
  }

  static Counter of(HostAndPort redis) {
    return () -> {
      try (Jedis jedis = new Jedis(redis)) {
        for (String line : jedis.info("stats").split("\r?\n")) {
          if (line.startsWith("total_commands_processed:")) {
            return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
          }
        }
      }
      throw new IllegalStateException("Redis INFO stats has no total_commands_processed");
    };
  }

  /** @return statements per second the counter grew by during {@code seconds} */
  static double rate(Counter counter, int seconds) throws Exception {
    long before = counter.read();
    Thread.sleep(seconds * 1000L);
    long after = counter.read();
    return (after - before) / (double) seconds;
  }
}
