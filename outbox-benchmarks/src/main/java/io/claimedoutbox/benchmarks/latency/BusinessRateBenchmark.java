package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.benchmarks.BenchDatabase;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * What the drain costs the application beside it: producer threads commit a business {@code INSERT}
 * plus one appended entry per transaction as fast as they can, with a drain of the same store in
 * the same JVM, and the business transactions per second are counted. Four variants run
 * alternated, the order rotating each round: the drain with its defaults, the drain claiming
 * committed entries with a round trip instead of taking them on append ({@code claimOnAppend(false)}),
 * the drain polling only ({@code wakeOnCommit(false)}: how the drain ran before commits woke it),
 * and no drain at all.
 *
 * <pre>
 * java -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.latency.BusinessRateBenchmark
 *     [--threads 1,8] [--seconds 6] [--rounds 4] [--url jdbc:postgresql://…]
 * </pre>
 */
public final class BusinessRateBenchmark {

  private BusinessRateBenchmark() {}

  private record Variant(String name, UnaryOperator<OutboxDrain.Builder> drain) {}

  private static final List<Variant> VARIANTS = List.of(
      new Variant("drain, defaults", builder -> builder),
      new Variant("drain, committed entries claimed by a round trip (claimOnAppend false)",
          builder -> builder.claimOnAppend(false)),
      new Variant("drain, polling only (wakeOnCommit false)", builder -> builder.wakeOnCommit(false)),
      new Variant("no drain", null));

  /**
   * Runs the benchmark and prints one line per run and the means.
   *
   * @param args see the class comment
   * @throws Exception when the database is unreachable
   */
  public static void main(String[] args) throws Exception {
    List<Integer> threads = Arrays.stream(option(args, "threads", "1,8").split(",")).map(Integer::parseInt).toList();
    int seconds = Integer.parseInt(option(args, "seconds", "6"));
    int rounds = Integer.parseInt(option(args, "rounds", "4"));
    String url = option(args, "url", System.getenv().getOrDefault("OUTBOX_POSTGRESQL_URL",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"));
    try (BenchDatabase database = new BenchDatabase(url)) {
      BusinessTable.create(database);
      JpaTestKit kit = JpaTestKit.create(database.dataSource(), database.database(), database.name());
      JpaOutboxStore store = kit.storeBuilder().build();
      for (int threadCount : threads) {
        double[][] rates = new double[VARIANTS.size()][rounds];
        run(database, store, VARIANTS.get(0), threadCount, 2);
        for (int round = 0; round < rounds; round++) {
          for (int i = 0; i < VARIANTS.size(); i++) {
            int index = (i + round) % VARIANTS.size();
            rates[index][round] = run(database, store, VARIANTS.get(index), threadCount, seconds);
            System.out.printf(Locale.ROOT, "round %d, %d thread(s), %s: %,.0f tx/s%n", round + 1, threadCount,
                VARIANTS.get(index).name(), rates[index][round]);
          }
        }
        for (int i = 0; i < VARIANTS.size(); i++) {
          System.out.printf(Locale.ROOT, "%d thread(s), %s: mean %,.0f tx/s, runs %s%n", threadCount,
              VARIANTS.get(i).name(), Arrays.stream(rates[i]).average().orElse(0), describe(rates[i]));
        }
      }
    }
  }

  private static String describe(double[] rates) {
    List<String> parts = new ArrayList<>();
    for (double rate : rates) {
      parts.add(String.format(Locale.ROOT, "%,.0f", rate));
    }
    return String.join(" / ", parts);
  }

  /** One timed run; the drain, if any, delivers everything before the next run starts. */
  private static double run(BenchDatabase database, JpaOutboxStore store, Variant variant, int threadCount,
      int seconds) throws Exception {
    database.execute(database.isPostgreSql() ? "TRUNCATE outbox_entry" : "DELETE FROM outbox_entry");
    AtomicLong handled = new AtomicLong();
    OutboxDrain drain = variant.drain() == null ? null
        : variant.drain().apply(OutboxDrain.builder(store, message -> handled.incrementAndGet())
            .workerId(WorkerId.of("business-rate"))).build();
    if (drain != null) {
      drain.start();
    }
    ExecutorService producers = Executors.newFixedThreadPool(threadCount);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Future<Long>> counts = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threadCount; t++) {
      counts.add(producers.submit(() -> produceUntil(database, store, deadline)));
    }
    long committed = 0;
    for (Future<Long> count : counts) {
      committed += count.get();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    producers.shutdown();
    if (drain != null) {
      long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (handled.get() < committed && System.nanoTime() < waitUntil) {
        Thread.sleep(10);
      }
      drain.stop(Duration.ofSeconds(30));
      if (handled.get() < committed) {
        throw new IllegalStateException(variant.name() + " handled " + handled.get() + " of " + committed);
      }
    }
    return committed / elapsed;
  }

  private static long produceUntil(BenchDatabase database, JpaOutboxStore store, long deadline) throws SQLException {
    long committed = 0;
    while (System.nanoTime() < deadline) {
      BusinessTable.commitWithEntry(database.dataSource(), store, committed);
      committed++;
    }
    return committed;
  }

  private static String option(String[] args, String name, String fallback) {
    for (int i = 0; i + 1 < args.length; i++) {
      if (args[i].equals("--" + name)) {
        return args[i + 1];
      }
    }
    return fallback;
  }
}
