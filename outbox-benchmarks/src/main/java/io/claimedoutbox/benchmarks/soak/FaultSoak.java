package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fault soak: four drains (concurrency 4, lease 2 s, handlers that take {@code --handler} each, so
 * the run lasts long enough to meet many faults) drain a backlog while every connection of their store
 * is killed every {@code --every} (PostgreSQL {@code pg_terminate_backend}, MariaDB
 * {@code KILL}, Redis {@code CLIENT KILL}, and for the soak's own Redis one {@code kill -9} and restart
 * of an {@code appendfsync always} server half way). It prints, per backend, what was appended, lost,
 * left stuck, delivered twice, wrongly reported {@code APPLIED} and thrown undocumented, and exits 1
 * when anything was lost or stuck, an {@code APPLIED} was wrong, an undocumented exception escaped, or
 * duplicate deliveries exceed a tenth of the faults.
 *
 * <pre>
 * java -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.soak.FaultSoak [--entries 20000]
 *     [--every 200ms] [--handler 15ms] [--timeout 180s] [--postgresql URL|none] [--mariadb URL|none] [--redis-port auto|PORT|none]
 *     [--output file.md]
 * </pre>
 */
public final class FaultSoak {

  private static final int DRAINS = 4;
  /** The soaks' drains' lease: short, so a claim lost to a fault comes back soon. */
  static final Duration LEASE = Duration.ofSeconds(2);

  private FaultSoak() {}

  /** One backend's books. */
  record Outcome(String backend, int entries, int faults, int restarts, long lost, long stuck, long duplicates,
      long wrongApplied, long undocumented, long storeFailures, long unknownOutcomes, long settledLater,
      double seconds) {

    boolean passed() {
      return lost == 0 && stuck == 0 && wrongApplied == 0 && undocumented == 0 && duplicates * 10 <= faults;
    }
  }

  /**
   * Runs the soak.
   *
   * @param args the options above
   * @throws Exception when a backend cannot be prepared
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int entries = Integer.parseInt(options.getOrDefault("entries", "20000"));
    Duration every = Duration.ofMillis(Long.parseLong(options.getOrDefault("every", "200ms").replace("ms", "")));
    Duration handlerTime = Duration.ofMillis(Long.parseLong(options.getOrDefault("handler", "15ms").replace("ms", "")));
    Duration timeout = Duration.ofSeconds(Long.parseLong(options.getOrDefault("timeout", "180s").replace("s", "")));
    List<Outcome> outcomes = new ArrayList<>();
    String postgresql = options.getOrDefault("postgresql",
        env("OUTBOX_POSTGRESQL_URL", "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"));
    String mariadb = options.getOrDefault("mariadb", env("OUTBOX_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root"));
    String redisPort = options.getOrDefault("redis-port", "auto");
    if (!postgresql.equals("none")) {
      try (SoakTarget target = new JdbcSoakTarget(postgresql)) {
        outcomes.add(soak(target, entries, every, handlerTime, timeout));
      }
    }
    if (!mariadb.equals("none")) {
      try (SoakTarget target = new JdbcSoakTarget(mariadb)) {
        outcomes.add(soak(target, entries, every, handlerTime, timeout));
      }
    }
    if (!redisPort.equals("none")) {
      int port = redisPort.equals("auto") ? freePort() : Integer.parseInt(redisPort);
      try (SoakTarget target = new RedisSoakTarget(port)) {
        outcomes.add(soak(target, entries, every, handlerTime, timeout));
      }
    }
    String report = report(entries, every, outcomes);
    System.out.println(report);
    if (options.containsKey("output")) {
      Files.writeString(Path.of(options.get("output")), report, StandardCharsets.UTF_8);
    }
    if (outcomes.stream().anyMatch(outcome -> !outcome.passed())) {
      System.err.println("FAULT SOAK FAILED: something was lost or stuck, an APPLIED was wrong, an undocumented"
          + " exception escaped, or duplicates exceeded a tenth of the faults");
      System.exit(1);
    }
  }

  /** A loopback port nothing listens on now, for the soak's own Redis, so concurrent runs never meet. */
  private static int freePort() throws IOException {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return probe.getLocalPort();
    }
  }

  private static String env(String name, String fallback) {
    return Optional.ofNullable(System.getenv(name)).orElse(fallback);
  }

  static Outcome soak(SoakTarget target, int entries, Duration every, Duration handlerTime, Duration timeout)
      throws Exception {
    System.out.printf("soak: %s, %,d entries, handlers of %d ms, every connection killed every %d ms%n",
        target.name(), entries, handlerTime.toMillis(), every.toMillis());
    List<EntryId> appended = new ArrayList<>(entries);
    for (int from = 0; from < entries; from += 500) {
      List<OutboxMessage> batch = new ArrayList<>();
      for (int i = from; i < Math.min(entries, from + 500); i++) {
        batch.add(OutboxMessage.of("soak", Integer.toString(i).getBytes(StandardCharsets.US_ASCII)));
      }
      target.store().appendAll(batch).forEach(entry -> appended.add(entry.id()));
    }
    SoakLedger ledger = SoakLedger.watching(target.store());
    Map<EntryId, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    AtomicLong delivered = new AtomicLong();
    List<OutboxDrain> drains = new ArrayList<>();
    for (int i = 0; i < DRAINS; i++) {
      drains.add(drain(target.store(), "soak-" + i, message -> {
        TimeUnit.MILLISECONDS.sleep(handlerTime.toMillis());
        if (deliveries.computeIfAbsent(message.entry().id(), id -> new AtomicInteger()).incrementAndGet() == 1) {
          delivered.incrementAndGet();
        }
      }));
    }
    AtomicInteger faults = new AtomicInteger();
    AtomicInteger restarts = new AtomicInteger();
    ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
    long started = System.nanoTime();
    killer.scheduleWithFixedDelay(() -> {
      try {
        boolean halfway = delivered.get() >= entries / 2 && restarts.get() == 0;
        if (halfway && target.canRestart()) {
          target.restartServer();
          restarts.incrementAndGet();
        } else {
          target.killConnections();
        }
        faults.incrementAndGet();
      } catch (Exception failure) {
        System.out.println("soak: fault injection failed: " + failure);
      }
    }, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    drains.forEach(OutboxDrain::start);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (delivered.get() < entries && System.nanoTime() < deadline) {
      TimeUnit.MILLISECONDS.sleep(100);
    }
    killer.shutdownNow();
    killer.awaitTermination(10, TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - started) / 1e9;
    long settleBy = System.nanoTime() + LEASE.multipliedBy(5).toNanos();
    while (!allDone(ledger, appended) && System.nanoTime() < settleBy) {
      TimeUnit.MILLISECONDS.sleep(200);
    }
    long settledLater = 0;
    for (OutboxDrain drain : drains) {
      drain.stop(Duration.ofSeconds(10));
      DrainStats stats = drain.stats();
      settledLater += stats.resultsSettledLater();
    }
    return books(target, ledger, appended, deliveries, faults.get(), restarts.get(), settledLater, seconds);
  }

  /**
   * A drain as both soaks run it: concurrency 4, a short lease renewed early, a short idle backoff, so a
   * fault meets many claims and results in flight.
   */
  static OutboxDrain drain(OutboxClaimOutcomeStore store, String workerId, OutboxMessageHandler handler) {
    return OutboxDrain.builder(store, handler)
        .workerId(WorkerId.of(workerId))
        .concurrency(4)
        .lease(LEASE)
        .leaseRenewal(Duration.ofMillis(300), Duration.ofMillis(1_000))
        .idleBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
        .build();
  }

  private static boolean allDone(SoakLedger ledger, List<EntryId> appended) {
    try {
      for (EntryId id : appended) {
        Optional<OutboxEntry> row = ledger.delegateFind(id);
        if (row.isEmpty() || row.get().status() != EntryStatus.DELIVERED) {
          return false;
        }
      }
      return true;
    } catch (RuntimeException stillBroken) {
      return false;
    }
  }

  private static Outcome books(SoakTarget target, SoakLedger ledger, List<EntryId> appended,
      Map<EntryId, AtomicInteger> deliveries, int faults, int restarts, long settledLater, double seconds) {
    long lost = 0;
    long stuck = 0;
    long wrong = 0;
    for (EntryId id : appended) {
      Optional<OutboxEntry> row = target.store().find(id);
      if (row.isEmpty()) {
        lost++;
        continue;
      }
      if (row.get().status() != EntryStatus.DELIVERED) {
        stuck++;
      }
      var applied = ledger.appliedDeliveries().getOrDefault(id, List.of());
      if (applied.size() > 1 || applied.stream().anyMatch(result ->
          !result.entry().lastWriteStamp().equals(row.get().lastWriteStamp()))) {
        wrong++;
      }
    }
    long duplicates = deliveries.values().stream().mapToLong(count -> Math.max(0, count.get() - 1)).sum();
    ledger.undocumented().stream().limit(3).forEach(escaped -> escaped.printStackTrace(System.out));
    return new Outcome(target.name(), appended.size(), faults, restarts, lost, stuck, duplicates, wrong,
        ledger.undocumented().size(), ledger.storeFailures(), ledger.unknownOutcomes(), settledLater, seconds);
  }

  static String report(int entries, Duration every, List<Outcome> outcomes) {
    StringBuilder table = new StringBuilder(String.format(
        "## Fault soak: %,d entries per backend, %d drains (concurrency 4, lease %d s), every connection killed"
            + " every %d ms%n%n", entries, DRAINS, LEASE.toSeconds(), every.toMillis()));
    table.append("| backend | entries | faults | restarts | lost | stuck | duplicate deliveries | duplicates per fault"
        + " | wrong APPLIED | undocumented exceptions | store failures / unknown outcomes | results settled later"
        + " | seconds | verdict |\n");
    table.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (Outcome o : outcomes) {
      table.append(String.format("| %s | %,d | %,d | %d | %d | %d | %,d | %.3f | %d | %d | %,d / %,d | %,d | %.1f | %s |%n",
          o.backend(), o.entries(), o.faults(), o.restarts(), o.lost(), o.stuck(), o.duplicates(),
          o.faults() == 0 ? 0.0 : (double) o.duplicates() / o.faults(), o.wrongApplied(), o.undocumented(),
          o.storeFailures(), o.unknownOutcomes(), o.settledLater(), o.seconds(), o.passed() ? "passed" : "FAILED"));
    }
    return table.toString();
  }
}
