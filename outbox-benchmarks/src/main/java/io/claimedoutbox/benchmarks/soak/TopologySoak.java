package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The topology soak: on each production topology of {@code .ci/topology} (and PgBouncer), a producer
 * appends at a steady rate and four drains deliver while the topology fails over {@code --faults} times
 * ({@code --spacing} apart). Per topology it prints what was appended (acknowledged), lost, left stuck,
 * delivered twice, reported {@code APPLIED} and then undone by a failover, reported {@code APPLIED}
 * wrongly, thrown undocumented, and how long after the topology served writes again the drains
 * delivered again. It exits 1 when a topology breaks its promise: anything wrong, stuck or
 * undocumented; on topologies that replicate synchronously anything lost or undone; on the others a
 * loss or an undone delivery the replication lag does not explain (acknowledged before the node that took
 * over stopped having every write, from the primary's write positions sampled during the run, see
 * {@link WritePositions}); or drains that took more than 10 s to deliver again.
 *
 * <pre>
 * java -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.soak.TopologySoak
 *     [--topologies pg-sync,pg-async,pgbouncer,galera,redis-replica,redis-replica-wait,redis-cluster,
 *     redis-cluster-wait] [--faults 5] [--spacing 6s] [--rate 400] [--output file.md]
 * </pre>
 * Run from the repository's folder: it starts and fails over the fixtures with {@code .ci/topology}.
 */
public final class TopologySoak {

  private static final int DRAINS = 4;
  private static final Duration LEASE = FaultSoak.LEASE;
  private static final Duration RECOVERY_BOUND = Duration.ofSeconds(10);
  private static final int BATCH = 10;

  private TopologySoak() {}

  /** One topology's books. */
  record Outcome(Topology topology, int faults, long acknowledged, long appendFailures, long lost,
      long lostUnexplained, long latestLossBeforeFaultMillis, long stuck, long duplicates, long undone,
      long wrongApplied, long undocumented, long storeFailures, long unknownOutcomes, double maxServedAgainSeconds,
      List<Double> recoverySeconds, double healthDownSeconds, List<String> drainFailures, long maxBehindBytes,
      long maxLagMillis) {

    double maxRecovery() {
      return recoverySeconds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    boolean passed() {
      boolean lossKept = topology.mayLoseAcknowledgedWrites() ? lostUnexplained == 0 : lost == 0 && undone == 0;
      boolean recovered = recoverySeconds.size() == faults && maxRecovery() <= RECOVERY_BOUND.toSeconds();
      return lossKept && stuck == 0 && wrongApplied == 0 && undocumented == 0 && recovered;
    }
  }

  /**
   * Runs the soak.
   *
   * @param args the options above
   * @throws Exception when a topology cannot be started
   */
  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    List<String> names = List.of(options.getOrDefault("topologies",
        "pg-sync,pg-async,pgbouncer,galera,redis-replica,redis-replica-wait,redis-cluster,redis-cluster-wait").split(","));
    int faults = Integer.parseInt(options.getOrDefault("faults", "5"));
    Duration spacing = Duration.ofMillis(millis(options.getOrDefault("spacing", "6s")));
    int rate = Integer.parseInt(options.getOrDefault("rate", "400"));
    TopologyScript script = TopologyScript.find();
    List<Outcome> outcomes = new ArrayList<>();
    for (String name : names) {
      try (Topology topology = open(name.trim(), script)) {
        outcomes.add(soak(topology, faults, spacing, rate));
      }
    }
    String report = report(faults, spacing, rate, outcomes);
    System.out.println(report);
    if (options.containsKey("output")) {
      Files.writeString(Path.of(options.get("output")), report, StandardCharsets.UTF_8);
    }
    if (outcomes.stream().anyMatch(outcome -> !outcome.passed())) {
      System.err.println("TOPOLOGY SOAK FAILED: a topology lost, undid or wrongly reported a write it promised to"
          + " keep, left an entry stuck, threw an undocumented exception, or its drains took over "
          + RECOVERY_BOUND.toSeconds() + " s to deliver again");
      System.exit(1);
    }
  }

  private static long millis(String duration) {
    return duration.endsWith("ms") ? Long.parseLong(duration.replace("ms", ""))
        : Long.parseLong(duration.replace("s", "")) * 1_000;
  }

  private static Topology open(String name, TopologyScript script) throws Exception {
    return switch (name) {
      case "pg-sync" -> new SqlTopology(SqlTopology.Kind.PG_SYNC, script);
      case "pg-async" -> new SqlTopology(SqlTopology.Kind.PG_ASYNC, script);
      case "pgbouncer" -> new SqlTopology(SqlTopology.Kind.PGBOUNCER, script);
      case "galera" -> new SqlTopology(SqlTopology.Kind.GALERA, script);
      case "redis-replica" -> new RedisReplicatedTopology(script, RedisReplicatedTopology.Kind.SENTINEL, false);
      case "redis-replica-wait" -> new RedisReplicatedTopology(script, RedisReplicatedTopology.Kind.SENTINEL, true);
      case "redis-cluster" -> new RedisReplicatedTopology(script, RedisReplicatedTopology.Kind.CLUSTER, false);
      case "redis-cluster-wait" -> new RedisReplicatedTopology(script, RedisReplicatedTopology.Kind.CLUSTER, true);
      default -> throw new IllegalArgumentException("--topologies: unknown topology '" + name
          + "' (pg-sync, pg-async, pgbouncer, galera, redis-replica, redis-replica-wait, redis-cluster,"
          + " redis-cluster-wait)");
    };
  }

  static Outcome soak(Topology topology, int faultCount, Duration spacing, int rate) throws Exception {
    System.out.printf("topology soak: %s, %d faults (%s) %d s apart, %d entries/s appended%n", topology.name(),
        faultCount, topology.faultDescription(), spacing.toSeconds(), rate);
    Map<OutboxClaimOutcomeStore, SoakLedger> ledgers = new LinkedHashMap<>();
    for (int i = 0; i < DRAINS; i++) {
      ledgers.computeIfAbsent(topology.storeOfDrain(i), SoakLedger::watching);
    }
    Map<EntryId, Long> acknowledged = new ConcurrentHashMap<>();
    Map<EntryId, AtomicInteger> deliveries = new ConcurrentHashMap<>();
    AtomicLong appendFailures = new AtomicLong();
    AtomicBoolean producing = new AtomicBoolean(true);
    Thread producer = new Thread(() -> produce(topology.appender(), rate, producing, acknowledged, appendFailures),
        "topology-soak-producer");
    List<OutboxDrain> drains = new ArrayList<>();
    for (int i = 0; i < DRAINS; i++) {
      drains.add(FaultSoak.drain(topology.storeOfDrain(i), "topology-soak-" + i,
          message -> deliveries.computeIfAbsent(message.entry().id(), id -> new AtomicInteger()).incrementAndGet()));
    }
    drains.forEach(OutboxDrain::start);
    producer.start();
    HealthWatch health = HealthWatch.start(drains);
    List<Topology.FaultTimes> faults = new ArrayList<>();
    for (int i = 0; i < faultCount; i++) {
      TimeUnit.MILLISECONDS.sleep(spacing.toMillis());
      faults.add(topology.fault(i));
    }
    TimeUnit.MILLISECONDS.sleep(spacing.toMillis());
    producing.set(false);
    producer.join();
    long settleBy = System.nanoTime() + LEASE.multipliedBy(5).plusSeconds(30).toNanos();
    while (deliveries.size() < acknowledged.size() && System.nanoTime() < settleBy) {
      TimeUnit.MILLISECONDS.sleep(200);
    }
    // handled is not yet recorded: a result that failed to be written is delivered again after its lease
    List<EntryId> unconfirmed = new ArrayList<>(acknowledged.keySet());
    while (!unconfirmed.isEmpty() && System.nanoTime() < settleBy) {
      unconfirmed.removeIf(id -> isDelivered(topology.appender(), id));
      if (!unconfirmed.isEmpty()) {
        TimeUnit.MILLISECONDS.sleep(500);
      }
    }
    health.stop();
    for (OutboxDrain drain : drains) {
      drain.stop(Duration.ofSeconds(10));
    }
    return books(topology, ledgers, acknowledged, deliveries, appendFailures.get(), faults, health);
  }

  private static boolean isDelivered(OutboxClaimOutcomeStore store, EntryId id) {
    try {
      return store.find(id).map(entry -> entry.status() == EntryStatus.DELIVERED).orElse(false);
    } catch (RuntimeException notNow) {
      return false;
    }
  }

  private static void produce(OutboxClaimOutcomeStore store, int rate, AtomicBoolean producing,
      Map<EntryId, Long> acknowledged, AtomicLong failures) {
    long interval = TimeUnit.SECONDS.toNanos(1) * BATCH / rate;
    long next = System.nanoTime();
    int sequence = 0;
    while (producing.get()) {
      List<OutboxMessage> batch = new ArrayList<>(BATCH);
      for (int i = 0; i < BATCH; i++) {
        batch.add(OutboxMessage.of("topology-soak", Integer.toString(sequence++).getBytes(StandardCharsets.US_ASCII)));
      }
      try {
        List<OutboxEntry> appended = store.appendAll(batch);
        long now = System.nanoTime();
        appended.forEach(entry -> acknowledged.put(entry.id(), now));
      } catch (RuntimeException notAcknowledged) {
        // Not acknowledged, so not promised: the soak counts it and never looks for those entries.
        failures.incrementAndGet();
      }
      next += interval;
      LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
    }
  }

  private static Outcome books(Topology topology, Map<OutboxClaimOutcomeStore, SoakLedger> ledgers,
      Map<EntryId, Long> acknowledged, Map<EntryId, AtomicInteger> deliveries, long appendFailures,
      List<Topology.FaultTimes> faults, HealthWatch health) {
    long lost = 0;
    long lostUnexplained = 0;
    long latestLossBeforeFault = 0;
    long stuck = 0;
    Map<EntryId, OutboxEntry> rows = new HashMap<>();
    for (Map.Entry<EntryId, Long> append : acknowledged.entrySet()) {
      Optional<OutboxEntry> row = topology.appender().find(append.getKey());
      if (row.isEmpty()) {
        lost++;
        long beforeFault = nanosBeforeNextFault(append.getValue(), faults);
        latestLossBeforeFault = Math.max(latestLossBeforeFault, TimeUnit.NANOSECONDS.toMillis(beforeFault));
        if (!inFailoverWindow(append.getValue(), faults)) {
          lostUnexplained++;
        }
        continue;
      }
      rows.put(append.getKey(), row.get());
      if (row.get().status() != EntryStatus.DELIVERED) {
        stuck++;
        if (stuck <= 3) {
          System.out.println("  stuck: " + row.get() + (deliveries.containsKey(append.getKey())
              ? ", handled " + deliveries.get(append.getKey()).get() + " time(s)" : ", never handled"));
        }
      }
    }
    long undone = 0;
    long wrong = 0;
    for (SoakLedger ledger : ledgers.values()) {
      for (Map.Entry<EntryId, List<ClaimTransitionResult>> reported : ledger.appliedDeliveries().entrySet()) {
        OutboxEntry row = rows.get(reported.getKey());
        if (row == null) {
          continue;
        }
        for (ClaimTransitionResult result : reported.getValue()) {
          if (result.entry().lastWriteStamp().equals(row.lastWriteStamp())) {
            continue;
          }
          // this delivery is not what the entry kept: undone by a failover, or wrongly reported
          boolean explained = topology.mayLoseAcknowledgedWrites()
              && inFailoverWindow(ledger.appliedAt(result), faults);
          if (explained || !topology.mayLoseAcknowledgedWrites()) {
            undone++;
          }
          if (!explained) {
            wrong++;
          }
        }
      }
    }
    long duplicates = deliveries.values().stream().mapToLong(count -> Math.max(0, count.get() - 1)).sum();
    List<Double> recovery = new ArrayList<>();
    double maxServedAgain = 0;
    for (Topology.FaultTimes fault : faults) {
      maxServedAgain = Math.max(maxServedAgain, (fault.servedAgain() - fault.struck()) / 1e9);
      long slowest = 0;
      boolean everyStoreDelivered = true;
      for (SoakLedger ledger : ledgers.values()) {
        Optional<Long> first = ledger.firstAppliedAfter(fault.servedAgain());
        everyStoreDelivered &= first.isPresent();
        slowest = Math.max(slowest, first.orElse(fault.servedAgain()) - fault.servedAgain());
      }
      if (everyStoreDelivered) {
        recovery.add(slowest / 1e9);
      }
    }
    List<RuntimeException> undocumented = new ArrayList<>();
    long storeFailures = 0;
    long unknownOutcomes = 0;
    for (SoakLedger ledger : ledgers.values()) {
      undocumented.addAll(ledger.undocumented());
      storeFailures += ledger.storeFailures();
      unknownOutcomes += ledger.unknownOutcomes();
    }
    undocumented.stream().limit(3).forEach(escaped -> escaped.printStackTrace(System.out));
    return new Outcome(topology, faults.size(), acknowledged.size(), appendFailures, lost, lostUnexplained,
        latestLossBeforeFault, stuck, duplicates, undone, wrong, undocumented.size(), storeFailures,
        unknownOutcomes, maxServedAgain, recovery, health.downSeconds(), health.failures(),
        faults.stream().mapToLong(Topology.FaultTimes::behindBytes).max().orElse(-1),
        faults.stream().mapToLong(Topology.FaultTimes::lagMillis).max().orElse(0));
  }

  /**
   * How long before the nearest fault that had not yet been served again {@code at} was (negative: after it
   * struck, while its answer was on the way); very long when no fault followed it.
   */
  private static long nanosBeforeNextFault(long at, List<Topology.FaultTimes> faults) {
    return faults.stream().filter(fault -> fault.servedAgain() >= at).mapToLong(fault -> fault.struck() - at)
        .min().orElse(Long.MAX_VALUE);
  }

  /**
   * Whether an acknowledgement at {@code at} came in a window a failover may undo: from when the node that
   * took over stopped having every write until the new primary served writes (an answer already on its way
   * when the old primary died arrives after the kill). A write acknowledged after the new primary served
   * writes went to it.
   */
  private static boolean inFailoverWindow(long at, List<Topology.FaultTimes> faults) {
    return faults.stream().anyMatch(fault -> at >= fault.lagSince() && at <= fault.servedAgain());
  }

  static String report(int faults, Duration spacing, int rate, List<Outcome> outcomes) {
    StringBuilder table = new StringBuilder(String.format(
        "## Topology soak: %d faults per topology, %d s apart; %d entries/s appended; %d drains (concurrency 4,"
            + " lease %d s)%n%n", faults, spacing.toSeconds(), rate, DRAINS, LEASE.toSeconds()));
    table.append("| topology | replication | fault | faults | taking-over node behind at the kill, max bytes / ms"
        + " | appended (acknowledged) | appends failed | lost | lost not explained by the lag | stuck | duplicate deliveries | APPLIED undone by a failover"
        + " | wrong APPLIED | undocumented exceptions | store failures / unknown outcomes | served again after, max s"
        + " | drains delivering again after, max s | health DOWN, s in all | verdict |\n");
    table.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:"
        + " | ---: | ---: | --- |\n");
    for (Outcome o : outcomes) {
      table.append(String.format("| %s | %s | %s | %d | %s | %,d | %,d | %d%s | %d | %d | %,d | %d | %d | %d | %,d / %,d"
              + " | %.2f | %.2f | %.1f | %s |%n",
          o.topology().name(), o.topology().replication(), o.topology().faultDescription(), o.faults(),
          o.maxBehindBytes() < 0 ? "–" : String.format("%,d / %,d", o.maxBehindBytes(), o.maxLagMillis()), o.acknowledged(), o.appendFailures(), o.lost(),
          o.lost() == 0 ? "" : String.format(" (acknowledged at most %d ms before a kill)", o.latestLossBeforeFaultMillis()),
          o.lostUnexplained(), o.stuck(), o.duplicates(), o.undone(), o.wrongApplied(), o.undocumented(),
          o.storeFailures(), o.unknownOutcomes(), o.maxServedAgainSeconds(), o.maxRecovery(),
          o.healthDownSeconds(), o.passed() ? "passed" : "FAILED"));
    }
    table.append(String.format("%nHealth DOWN: the time a drain had %d or more claims fail in a row (what the Spring"
        + " Boot health indicator reports as DOWN). What the drains reported as their last failure (the drain logs"
        + " each failure at WARN):%n%n", HealthWatch.CLAIM_FAILURES_DOWN));
    for (Outcome o : outcomes) {
      table.append("- ").append(o.topology().name()).append(": ");
      table.append(o.drainFailures().isEmpty() ? "none" : String.join("; ", o.drainFailures().stream()
          .map(failure -> "`" + failure.replace('`', '\'') + "`").toList()));
      table.append('\n');
    }
    table.append(String.format("%nA loss (or an undone delivery) is explained by the replication lag when the write"
        + " was acknowledged after the node that took over last had every write (found from the primary's write"
        + " position, sampled every 10 ms, and the position that node had reached at the kill: the ms behind)"
        + " and before the new primary served writes; only asynchronous replication may lose such writes.%n"));
    return table.toString();
  }
}
