package io.claimedoutbox.benchmarks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The raw backend floor: {@code workers} threads each deleting up to 100 rows at a time with
 * {@code DELETE … FOR UPDATE SKIP LOCKED … RETURNING} in autocommit and handing each row to the
 * handler. No claims, no leases, no retries, no outcomes: what the database does at best.
 */
final class SkipLockedFloor implements Contender {

  private static final String TAKE = "DELETE FROM bench_floor WHERE id IN"
      + " (SELECT id FROM bench_floor ORDER BY id LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING payload";

  private final BenchDatabase database;
  private final Duration timeout;

  SkipLockedFloor(BenchDatabase database, Duration timeout) throws Exception {
    this.database = database;
    this.timeout = timeout;
    database.execute("DROP TABLE IF EXISTS bench_floor");
    database.execute("CREATE TABLE bench_floor (id BIGSERIAL PRIMARY KEY, payload BYTEA NOT NULL)");
  }

  @Override
  public String name() {
    return "raw SKIP LOCKED floor";
  }

  @Override
  public String backend() {
    return database.name();
  }

  @Override
  public void seed(int entries) throws Exception {
    database.execute("TRUNCATE bench_floor");
    try (Connection connection = database.dataSource().getConnection();
        PreparedStatement insert = connection.prepareStatement("INSERT INTO bench_floor (payload) VALUES (?)")) {
      for (int i = 0; i < entries; i++) {
        insert.setBytes(1, Payloads.of(i));
        insert.addBatch();
        if (i % 1000 == 999 || i == entries - 1) {
          insert.executeBatch();
        }
      }
    }
    database.execute("VACUUM ANALYZE bench_floor");
  }

  @Override
  public void drain(int workers, Handled handled) throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(workers);
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Future<?>> running = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      running.add(threads.submit(() -> {
        try (Connection connection = database.dataSource().getConnection();
            PreparedStatement take = connection.prepareStatement(TAKE)) {
          int taken;
          do {
            taken = 0;
            try (ResultSet rows = take.executeQuery()) {
              while (rows.next()) {
                handled.delivered(new String(rows.getBytes(1), java.nio.charset.StandardCharsets.US_ASCII));
                taken++;
              }
            }
          } while (taken > 0 && System.nanoTime() < deadline);
        }
        return null;
      }));
    }
    try {
      for (Future<?> thread : running) {
        thread.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  @Override
  public long undone() throws Exception {
    return database.count("SELECT COUNT(*) FROM bench_floor");
  }

  @Override
  public void close() throws Exception {
    database.execute("DROP TABLE IF EXISTS bench_floor");
  }
}
