package io.claimedoutbox.benchmarks.soak;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Samples, every few milliseconds, how far each primary of a topology has written (a PostgreSQL
 * primary's WAL position, a Redis master's replication offset), so that a failover's loss can be
 * explained by the replication lag: given the position the node that took over had reached at the kill,
 * {@link #lastWrittenUpTo} says since when acknowledged writes may have been missing from it.
 *
 * <p>A sample is stamped with the time taken <em>before</em> the position was asked for: every write
 * acknowledged before that time has a position at or below the sample, so a write acknowledged before
 * {@link #lastWrittenUpTo} is on the node that took over.
 */
final class WritePositions implements AutoCloseable {

  private static final long INTERVAL_MILLIS = 10;

  /** Asks one node for its write position; null while it is not a primary. */
  private interface Probe extends AutoCloseable {
    Long position() throws Exception;

    @Override
    void close();
  }

  private final Map<Integer, TreeMap<Long, Long>> samplesByPort = new ConcurrentHashMap<>();
  private final List<Thread> samplers = new ArrayList<>();
  private volatile boolean running = true;

  private WritePositions() {}

  /** Samples the PostgreSQL servers on {@code ports} (127.0.0.1, user postgres, database outbox_test). */
  static WritePositions postgresql(List<Integer> ports) {
    WritePositions positions = new WritePositions();
    ports.forEach(port -> positions.sample(port, () -> new PostgresqlProbe(port)));
    return positions;
  }

  /** Samples the Redis servers on {@code ports} (127.0.0.1). */
  static WritePositions redis(List<Integer> ports) {
    WritePositions positions = new WritePositions();
    ports.forEach(port -> positions.sample(port, () -> new RedisProbe(port)));
    return positions;
  }

  /**
   * @param struck when the primary was killed ({@link System#nanoTime()}); later samples are not read
   * @return the latest time ({@link System#nanoTime()}) at which the primary on {@code port} had written
   *     no further than {@code position}, so writes acknowledged before it are within {@code position};
   *     just before the first sample when every sample was further (the lag predates the sampling)
   * @throws IllegalStateException when the primary on {@code port} was never sampled
   */
  long lastWrittenUpTo(int port, long position, long struck) {
    TreeMap<Long, Long> samples = samplesByPort.getOrDefault(port, new TreeMap<>());
    synchronized (samples) {
      if (samples.isEmpty()) {
        throw new IllegalStateException("no write position was sampled from the primary on port " + port);
      }
      long latest = samples.firstKey() - 1;
      // only samples from before the kill: a killed node restarted without its data can answer as a
      // primary at offset 0 for a moment, which would put "had every write" after the kill (lag 0 ms)
      for (Map.Entry<Long, Long> sample : samples.headMap(struck, true).entrySet()) {
        if (sample.getValue() <= position) {
          latest = sample.getKey();
        }
      }
      return latest;
    }
  }

  private void sample(int port, Supplier<Probe> connect) {
    TreeMap<Long, Long> samples = samplesByPort.computeIfAbsent(port, ignored -> new TreeMap<>());
    Thread sampler = new Thread(() -> sampleUntilClosed(samples, connect), "write-positions-" + port);
    sampler.setDaemon(true);
    samplers.add(sampler);
    sampler.start();
  }

  private void sampleUntilClosed(TreeMap<Long, Long> samples, Supplier<Probe> connect) {
    Probe probe = null;
    while (running) {
      long pause = INTERVAL_MILLIS;
      try {
        if (probe == null) {
          probe = connect.get();
        }
        long asked = System.nanoTime();
        Long position = probe.position();
        if (position != null) {
          synchronized (samples) {
            samples.put(asked, position);
          }
        }
      } catch (Exception nodeDown) {
        // a killed or restarting node: ask again once it is back
        if (probe != null) {
          probe.close();
          probe = null;
        }
        pause = 50;
      }
      try {
        TimeUnit.MILLISECONDS.sleep(pause);
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    if (probe != null) {
      probe.close();
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    for (Thread sampler : samplers) {
      sampler.join(2_000);
    }
  }

  private static final class PostgresqlProbe implements Probe {
    private final Connection connection;

    PostgresqlProbe(int port) {
      try {
        connection = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port
            + "/outbox_test?user=postgres&connectTimeout=1&socketTimeout=2&ApplicationName=outbox-write-positions");
      } catch (SQLException down) {
        throw new IllegalStateException(down);
      }
    }

    @Override
    public Long position() throws SQLException {
      try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(
          "SELECT CASE WHEN pg_is_in_recovery() THEN NULL ELSE pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint END")) {
        row.next();
        long position = row.getLong(1);
        return row.wasNull() ? null : position;
      }
    }

    @Override
    public void close() {
      try {
        connection.close();
      } catch (SQLException alreadyGone) {
        // the node was killed; nothing to release
      }
    }
  }

  private static final class RedisProbe implements Probe {
    private final Jedis jedis;

    RedisProbe(int port) {
      jedis = new Jedis(new HostAndPort("127.0.0.1", port),
          DefaultJedisClientConfig.builder().connectionTimeoutMillis(500).socketTimeoutMillis(2_000).build());
    }

    @Override
    public Long position() {
      String replication = jedis.info("replication");
      if (!replication.contains("role:master")) {
        return null;
      }
      return replication.lines().filter(line -> line.startsWith("master_repl_offset:"))
          .map(line -> Long.parseLong(line.substring("master_repl_offset:".length()).trim())).findFirst().orElse(null);
    }

    @Override
    public void close() {
      jedis.close();
    }
  }
}
