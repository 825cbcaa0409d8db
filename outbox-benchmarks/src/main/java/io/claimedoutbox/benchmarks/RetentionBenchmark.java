package io.claimedoutbox.benchmarks;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxOperations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import redis.clients.jedis.HostAndPort;

/**
 * What retention costs the drain: on each backend, fill the outbox with finished entries, then run
 * a small claim workload (append 20, claim 20, deliver them) first alone and then while a purge of
 * every finished entry runs in batches beside it. Reports the purge rate and the claim call's
 * latency (p50, p99) without and with the purge, as a ratio: the purge must never lock out claims.
 *
 * <p>{@code java -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.RetentionBenchmark
 * [--finished 200000] [--batch 1000] [--quiet-seconds 5] [--postgresql URL] [--mariadb URL|none]
 * [--redis host:port|none] [--output file.md]}
 */
public final class RetentionBenchmark {

  private static final WorkerId WORKER = WorkerId.of("retention-bench");
  private static final byte[] PAYLOAD = "{\"order\":42}".getBytes(StandardCharsets.UTF_8);

  private RetentionBenchmark() {}

  /** One backend's figures. */
  record Result(String backend, long purged, double purgeSeconds, Latency quiet, Latency purging) {}

  /** Claim-call latencies in milliseconds. */
  record Latency(double p50, double p99, int calls) {
    static Latency of(List<Long> nanos) {
      List<Long> sorted = new ArrayList<>(nanos);
      Collections.sort(sorted);
      return new Latency(percentile(sorted, 0.50), percentile(sorted, 0.99), sorted.size());
    }

    private static double percentile(List<Long> sorted, double quantile) {
      return sorted.isEmpty() ? Double.NaN : sorted.get((int) Math.min(sorted.size() - 1, quantile * sorted.size())) / 1e6;
    }
  }

  /**
   * @param args see the class comment
   * @throws Exception when a backend fails
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("org.jboss.logging.provider", "slf4j");
    Map<String, String> options = DrainBenchmark.options(args);
    int finished = Integer.parseInt(options.getOrDefault("finished", "200000"));
    int batch = Integer.parseInt(options.getOrDefault("batch", "1000"));
    Duration quiet = Duration.ofSeconds(Long.parseLong(options.getOrDefault("quiet-seconds", "5")));
    String postgresql = options.getOrDefault("postgresql", DrainBenchmark.env("OUTBOX_POSTGRESQL_URL",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"));
    String mariadb = options.getOrDefault("mariadb", DrainBenchmark.env("OUTBOX_MARIADB_URL",
        "jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root"));
    String redis = options.getOrDefault("redis", DrainBenchmark.env("OUTBOX_REDIS_URL", "127.0.0.1:6379"));

    List<Result> results = new ArrayList<>();
    try (BenchDatabase pg = new BenchDatabase(postgresql); JpaBackend backend = new JpaBackend(pg)) {
      results.add(measure(backend.name(), backend.store(), finished, batch, quiet));
    }
    if (!mariadb.equals("none")) {
      try (BenchDatabase maria = new BenchDatabase(mariadb); JpaBackend backend = new JpaBackend(maria)) {
        results.add(measure(backend.name(), backend.store(), finished, batch, quiet));
      }
    }
    if (!redis.equals("none")) {
      try (RedisBackend backend = RedisBackend.standalone(HostAndPort.from(redis))) {
        backend.reset();
        results.add(measure(backend.name(), backend.store(), finished, batch, quiet));
        backend.reset();
      }
    }
    String report = report(results, finished, batch);
    System.out.print(report);
    if (options.containsKey("output")) {
      Files.writeString(Path.of(options.get("output")), report, StandardCharsets.UTF_8);
    }
  }

  private static Result measure(String name, OutboxClaimOutcomeStore store, int finished, int batch, Duration quiet)
      throws InterruptedException {
    System.err.printf(Locale.ROOT, "%s: appending and delivering %,d entries%n", name, finished);
    for (int done = 0; done < finished; done += 1000) {
      deliverBatch(store, Math.min(1000, finished - done));
    }
    List<Long> quietLatencies = claimWhile(store, () -> sleepQuietly(quiet));
    OutboxOperations operations = (OutboxOperations) store;
    long[] purged = new long[1];
    double[] seconds = new double[1];
    List<Long> purgingLatencies = claimWhile(store, () -> {
      long started = System.nanoTime();
      purged[0] = operations.purgeAll(Duration.ZERO, batch);
      seconds[0] = (System.nanoTime() - started) / 1e9;
    });
    System.err.printf(Locale.ROOT, "%s: purged %,d in %.1f s%n", name, purged[0], seconds[0]);
    return new Result(name, purged[0], seconds[0], Latency.of(quietLatencies), Latency.of(purgingLatencies));
  }

  private static void deliverBatch(OutboxClaimOutcomeStore store, int size) {
    store.appendAll(IntStream.range(0, size).mapToObj(i -> OutboxMessage.of("bench", PAYLOAD)).toList());
    List<Claim> claims = store.claimDue(WORKER, size, Duration.ofSeconds(30));
    store.tryTransitionAll(claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList());
  }

  /** Runs the claim workload on another thread while {@code meanwhile} runs here; returns each claim call's time. */
  private static List<Long> claimWhile(OutboxClaimOutcomeStore store, Runnable meanwhile) throws InterruptedException {
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Thread workload = new Thread(() -> {
      while (running.get() && failure.get() == null) {
        store.appendAll(IntStream.range(0, 20).mapToObj(i -> OutboxMessage.of("live", PAYLOAD)).toList());
        long started = System.nanoTime();
        List<Claim> claims = store.claimDue(WORKER, 20, Duration.ofSeconds(30));
        latencies.add(System.nanoTime() - started);
        store.tryTransitionAll(claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList());
      }
    }, "claim-workload");
    workload.setUncaughtExceptionHandler((thread, thrown) -> failure.set(new IllegalStateException(
        "the claim workload failed: " + thrown, thrown)));
    workload.start();
    try {
      meanwhile.run();
    } finally {
      running.set(false);
      workload.join();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return latencies;
  }

  private static void sleepQuietly(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  static String report(List<Result> results, int finished, int batch) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "Retention: purge of %,d finished entries in batches of %,d, beside a claim"
        + " workload (append 20, claim 20, deliver)%n%n", finished, batch));
    out.append("| backend | purged | seconds | purged per second | claim p50 / p99 ms, alone | claim p50 / p99 ms,"
        + " during the purge | p99 ratio | claim calls alone / during |\n|---|---|---|---|---|---|---|---|\n");
    for (Result result : results) {
      out.append(String.format(Locale.ROOT, "| %s | %,d | %.1f | %,.0f | %.2f / %.2f | %.2f / %.2f | %.2f | %,d / %,d |%n",
          result.backend(), result.purged(), result.purgeSeconds(), result.purged() / result.purgeSeconds(),
          result.quiet().p50(), result.quiet().p99(), result.purging().p50(), result.purging().p99(),
          result.purging().p99() / result.quiet().p99(), result.quiet().calls(), result.purging().calls()));
    }
    return out.toString();
  }
}
