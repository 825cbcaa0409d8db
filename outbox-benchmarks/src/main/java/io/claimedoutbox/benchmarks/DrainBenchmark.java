package io.claimedoutbox.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.HostAndPort;

/**
 * The drain side by side with the peers a Java team would pick instead, on the same PostgreSQL in
 * one process run: our drain with default settings, db-scheduler, transaction-outbox and the raw
 * {@code SKIP LOCKED} floor, then our drain on MariaDB and Redis (standalone and cluster). Every
 * round runs every contender once per backlog size and worker count (interleaved, so a noisy
 * machine slows all alike), after one untimed warm-up drain per contender; the report gives
 * medians and per-round ratios.
 *
 * <pre>
 * java -jar outbox-benchmarks/target/outbox-benchmarks.jar [--entries 20000,200000] [--workers 4,16]
 *     [--rounds 3] [--output docs/benchmarks.md] [--postgresql URL] [--mariadb URL|none]
 *     [--redis host:port|none] [--redis-cluster host:port,…|none] [--timeout-seconds 600]
 *     [--only word,word]   (run only the contenders whose "system on backend" contains a word)
 *     [--warmup 30000]     (an untimed drain of this many entries per contender first, for the JIT:
 *                          5,000 left our drain at a third of its warm rate in the first round;
 *                          a fresh JVM with no warm-up is scripts/drain-benchmark-cold)
 *     [--ordering-keys 100|1,100,10000|none]  (also our drain over a backlog spread over that many
 *                          ordering keys, on PostgreSQL, MariaDB and standalone Redis; 100 by default,
 *                          the count issue #21 measures keyed drains at)
 *     [--slow-peers-max-entries 20000]  (namastack-outbox and JobRunr only at sizes up to this: at
 *                          200,000 entries namastack drained 190 entries/s here, 18 minutes a cell)
 * </pre>
 */
public final class DrainBenchmark {

  /** Entries each contender drains untimed before the rounds. */
  static final int DEFAULT_WARMUP = 30_000;

  /** Ordering keys of the keyed backlog our drain also runs over, unless {@code --ordering-keys none}. */
  static final int DEFAULT_ORDERING_KEYS = 100;

  private DrainBenchmark() {}

  /**
   * Runs the benchmark.
   *
   * @param args see the class comment
   * @throws Exception when a backend is unreachable or a contender fails
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("org.jboss.logging.provider", "slf4j");
    Map<String, String> options = options(args);
    List<Integer> sizes = numbers(options.getOrDefault("entries", "20000,200000"));
    List<Integer> workerCounts = numbers(options.getOrDefault("workers", "4,16"));
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "3"));
    int slowPeersMaxEntries = Integer.parseInt(options.getOrDefault("slow-peers-max-entries", "20000"));
    Duration timeout = Duration.ofSeconds(Long.parseLong(options.getOrDefault("timeout-seconds", "600")));
    String postgresql = options.getOrDefault("postgresql", env("OUTBOX_POSTGRESQL_URL",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"));
    String mariadb = options.getOrDefault("mariadb", env("OUTBOX_MARIADB_URL",
        "jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root"));
    String redis = options.getOrDefault("redis", env("OUTBOX_REDIS_URL", "127.0.0.1:6379"));
    String cluster = options.getOrDefault("redis-cluster", env("OUTBOX_REDIS_CLUSTER",
        "127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103"));

    String keyCounts = options.getOrDefault("ordering-keys", String.valueOf(DEFAULT_ORDERING_KEYS));
    List<Integer> orderingKeys = keyCounts.equals("none") ? List.of() : numbers(keyCounts);

    List<AutoCloseable> resources = new ArrayList<>();
    List<Contender> contenders = new ArrayList<>();
    MachineFacts machine = new MachineFacts();
    try {
      BenchDatabase pg = open(new BenchDatabase(postgresql), resources);
      machine.describe(pg);
      contenders.add(open(new ClaimedOutboxContender(new JpaBackend(pg), timeout), resources));
      for (int keys : orderingKeys) {
        contenders.add(open(new ClaimedOutboxContender(new JpaBackend(pg), timeout, keys), resources));
      }
      contenders.add(open(new DbSchedulerContender(pg, timeout), resources));
      contenders.add(open(new TransactionOutboxContender(pg, timeout), resources));
      Set<Contender> slowPeers = Set.of(open(new NamastackContender(pg, timeout), resources),
          open(new JobRunrContender(pg, timeout), resources));
      contenders.addAll(slowPeers);
      contenders.add(open(new SkipLockedFloor(pg, timeout), resources));
      if (!mariadb.equals("none")) {
        BenchDatabase maria = open(new BenchDatabase(mariadb), resources);
        machine.describe(maria);
        contenders.add(open(new ClaimedOutboxContender(new JpaBackend(maria), timeout), resources));
        for (int keys : orderingKeys) {
          contenders.add(open(new ClaimedOutboxContender(new JpaBackend(maria), timeout, keys), resources));
        }
      }
      if (!redis.equals("none")) {
        RedisBackend standalone = RedisBackend.standalone(HostAndPort.from(redis));
        machine.describe(standalone.name(), HostAndPort.from(redis));
        contenders.add(open(new ClaimedOutboxContender(standalone, timeout), resources));
        for (int keys : orderingKeys) {
          contenders.add(open(new ClaimedOutboxContender(RedisBackend.standalone(HostAndPort.from(redis)), timeout, keys),
              resources));
        }
      }
      if (!cluster.equals("none")) {
        contenders.add(open(new ClaimedOutboxContender(
            RedisBackend.cluster(List.copyOf(RedisBackend.parse(cluster))), timeout), resources));
      }

      int warmup = Integer.parseInt(options.getOrDefault("warmup", String.valueOf(DEFAULT_WARMUP)));
      for (Contender contender : contenders) {
        if (warmup > 0 && selected(options, contender)) {
          measure(contender, warmup, workerCounts.get(0), 0);
        }
      }
      List<Measurement> measurements = new ArrayList<>();
      for (int round = 1; round <= rounds; round++) {
        for (int entries : sizes) {
          for (int workers : workerCounts) {
            for (Contender contender : contenders) {
              if (!selected(options, contender) || slowPeers.contains(contender) && entries > slowPeersMaxEntries) {
                continue;
              }
              Measurement measured = measure(contender, entries, workers, round);
              measurements.add(measured);
              System.out.printf("round %d  %,8d entries  %2d workers  %-40s %-36s %,10.0f entries/s"
                      + "  duplicates %d  undone %d  CPU s per 10k: JVM | of it compiling | server | machine busy | others | load: %s%n",
                  round, entries, workers, contender.name(), contender.backend(), measured.entriesPerSecond(),
                  measured.duplicates(), measured.undone(), measured.cpu().per10k(entries));
              if (!measured.storeCalls().isEmpty()) {
                System.out.println("         store calls: " + measured.storeCalls());
              }
            }
          }
        }
      }
      String report = new BenchmarkReport(measurements, machine, rounds, warmup, slowPeersMaxEntries).markdown();
      System.out.println();
      System.out.println(report);
      if (options.containsKey("output")) {
        Path output = Path.of(options.get("output"));
        if (output.getParent() != null) {
          Files.createDirectories(output.getParent());
        }
        Files.writeString(output, report + BenchmarkReport.keptReading(output));
        System.out.println("Written to " + output);
      }
    } finally {
      for (int i = resources.size() - 1; i >= 0; i--) {
        resources.get(i).close();
      }
    }
  }

  private static Measurement measure(Contender contender, int entries, int workers, int round) throws Exception {
    contender.prepare(workers);
    contender.seed(entries);
    Handled handled = new Handled(entries);
    CpuMeter.Reading cpu = CpuMeter.start(contender.backend());
    long started = System.nanoTime();
    contender.drain(workers, handled);
    double seconds = (System.nanoTime() - started) / 1e9;
    CpuMeter.Used used = cpu.stop();
    String calls = contender instanceof ClaimedOutboxContender ours ? ours.lastCalls() : "";
    return new Measurement(contender.name(), contender.backend(), entries, workers, round,
        handled.distinct() / seconds, handled.duplicates(), contender.undone(), calls, used);
  }

  /** {@code --only a,b}: run just the contenders whose "system on backend" contains one of the words. */
  private static boolean selected(Map<String, String> options, Contender contender) {
    if (!options.containsKey("only")) {
      return true;
    }
    String key = (contender.name() + " on " + contender.backend()).toLowerCase(java.util.Locale.ROOT);
    return Arrays.stream(options.get("only").toLowerCase(java.util.Locale.ROOT).split(","))
        .anyMatch(word -> key.contains(word.strip()));
  }

  private static <T extends AutoCloseable> T open(T resource, List<AutoCloseable> resources) {
    resources.add(resource);
    return resource;
  }

  static Map<String, String> options(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 == args.length) {
        throw new IllegalArgumentException("options come as --name value pairs; got " + Arrays.toString(args)
            + "\nsee the class comment of " + DrainBenchmark.class.getName());
      }
      options.put(args[i].substring(2), args[++i]);
    }
    return options;
  }

  private static List<Integer> numbers(String list) {
    return Arrays.stream(list.split(",")).map(String::strip).map(Integer::parseInt).toList();
  }

  static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
