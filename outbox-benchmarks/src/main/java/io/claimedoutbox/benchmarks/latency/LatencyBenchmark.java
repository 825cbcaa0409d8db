package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.benchmarks.BenchDatabase;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.HostAndPort;

/**
 * Commit-to-handler latency at steady producer rates, our drain beside the peers a team would
 * pick instead, in one run: producers commit a business {@code INSERT} and one outbox entry per
 * transaction at a fixed rate, the relay runs in the same JVM, and the time from the commit
 * returning to the handler's first line is recorded for every entry. Systems are interleaved
 * within each round (the order turns each round), so a noisy machine slows all alike; each system
 * gets an untimed warm-up first. Producers run in the same JVM, and for our drain also in another
 * JVM (then the wake-up comes over PostgreSQL's NOTIFY or Redis' publish, MariaDB has none).
 *
 * <pre>
 * java -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.latency.LatencyBenchmark
 *     [--rates 1,20,200,2000] [--seconds 10] [--rounds 2] [--backends postgresql,mariadb,redis]
 *     [--only word,word] [--other-jvm true] [--same-jvm true] [--remote-producer jpa|jdbc]
 *     [--idle-seconds 30] [--output docs/latency.md]
 *     [--ladder 5,20,50,200,500,2000,5000,10000 | none] [--ladder-seconds 5]
 *     [--postgresql URL] [--mariadb URL] [--redis host:port] [--trace FILE-PREFIX]
 * </pre>
 *
 * <p>{@code --remote-producer jdbc} makes the other JVM's producers append as the same-JVM ones do
 * (plain JDBC, {@code beginAppendOn}) instead of in a JPA transaction; {@code --trace} writes, per row,
 * a file of each entry's commit and handler-start {@code System.nanoTime()}, for finding where a
 * tail came from (a stall of the relay shows as a gap in handler starts while commits go on).
 */
public final class LatencyBenchmark {

  /** Where each row's per-entry commit and handler-start times go, when asked ({@code --trace}). */
  private static String tracePrefix;

  private LatencyBenchmark() {}

  /** One measured row. */
  record Row(int round, String backend, int rate, String system, String producers, Recording.Summary summary,
      double achievedRate, double cpuSeconds, String load, boolean keptUp) {}

  /**
   * Runs the benchmark.
   *
   * @param args see the class comment
   * @throws Exception when a backend is unreachable or a system fails
   */
  public static void main(String[] args) throws Exception {
    System.setProperty("org.jboss.logging.provider", "slf4j");
    Map<String, String> options = options(args);
    List<Integer> rates = Arrays.stream(options.getOrDefault("rates", "1,20,200,2000").split(","))
        .map(Integer::parseInt).toList();
    int seconds = Integer.parseInt(options.getOrDefault("seconds", "10"));
    int rounds = Integer.parseInt(options.getOrDefault("rounds", "2"));
    int idleSeconds = Integer.parseInt(options.getOrDefault("idle-seconds", "30"));
    boolean otherJvm = Boolean.parseBoolean(options.getOrDefault("other-jvm", "true"));
    boolean sameJvm = Boolean.parseBoolean(options.getOrDefault("same-jvm", "true"));
    String ladderOption = options.getOrDefault("ladder", "5,20,50,200,500,2000,5000,10000");
    List<Integer> ladder = ladderOption.equals("none") ? List.of()
        : Arrays.stream(ladderOption.split(",")).map(Integer::parseInt).toList();
    int ladderSeconds = Integer.parseInt(options.getOrDefault("ladder-seconds", "5"));
    List<String> backends = List.of(options.getOrDefault("backends", "postgresql,mariadb,redis").split(","));
    String remoteProducer = options.getOrDefault("remote-producer", "jpa");
    tracePrefix = options.get("trace");
    List<String> only = options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of();
    String postgresql = options.getOrDefault("postgresql", env("OUTBOX_POSTGRESQL_URL",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"));
    String mariadb = options.getOrDefault("mariadb", env("OUTBOX_MARIADB_URL",
        "jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root"));
    HostAndPort redis = HostAndPort.from(options.getOrDefault("redis", env("OUTBOX_REDIS_URL", "127.0.0.1:6379")));

    List<Row> rows = new ArrayList<>();
    Map<String, String> idle = new LinkedHashMap<>();
    List<Ladder> ladders = new ArrayList<>();
    for (String backend : backends) {
      try (Backend opened = Backend.open(backend, postgresql, mariadb, redis, remoteProducer)) {
        List<LatencySystem> systems = opened.systems().stream()
            .filter(system -> only.isEmpty() || only.stream().anyMatch(word -> system.name().contains(word)))
            .toList();
        for (LatencySystem system : systems) {
          warmUp(system);
          if (otherJvm && hasOtherJvmRows(system)) {
            warmUpFromOtherJvm(system, opened.remoteArguments());
          }
        }
        for (int round = 1; round <= rounds; round++) {
          for (int rate : rates) {
            List<LatencySystem> order = new ArrayList<>(systems);
            java.util.Collections.rotate(order, round - 1);
            for (LatencySystem system : order) {
              if (sameJvm) {
                rows.add(measure(round, opened.name(), rate, seconds, system, null));
              }
              if (otherJvm && hasOtherJvmRows(system)) {
                rows.add(measure(round, opened.name(), rate, seconds, system, opened.remoteArguments()));
              }
            }
          }
        }
        for (LatencySystem system : ladder.isEmpty() ? List.<LatencySystem>of() : systems) {
          ladders.add(climb(opened.name(), system, ladder, ladderSeconds));
        }
        if (idleSeconds > 0) {
          idle.put(opened.name(), idleCost(opened, idleSeconds));
        }
      }
    }
    String report = report(rows, ladders, idle, seconds, rounds, String.join(" ", args));
    System.out.println(report);
    if (options.containsKey("output")) {
      Path output = Path.of(options.get("output"));
      Files.writeString(output, report);
      System.out.println("written to " + output);
    }
    List<Row> broken = rows.stream().filter(row -> row.system().startsWith("ours")
        && (row.summary().lost() > 0 || row.summary().duplicates() > 0)).toList();
    broken.forEach(row -> System.out.println("LOST OR DUPLICATED: " + line(row)));
    System.exit(broken.isEmpty() ? 0 : 1);
  }

  private static void warmUp(LatencySystem system) throws Exception {
    Recording ignored = new Recording(1);
    system.start(ignored);
    produceWarmUp(system);
    system.stop();
  }

  private static boolean hasOtherJvmRows(LatencySystem system) {
    return system instanceof OursOnSql || system instanceof OursOnRedis;
  }

  /**
   * Warms the relay's path for entries committed elsewhere (a wake-up from another process, then a
   * due-query claim), which the same-JVM warm-up does not run: 1,000/s for 5 s from a producer
   * process, untimed. Without it the first other-JVM row ran the relay's JIT compilation on the two
   * cores the producers need (in one run: 8.6 s of relay CPU where later rounds took 2.7 s).
   */
  private static void warmUpFromOtherJvm(LatencySystem system, List<String> remote) throws Exception {
    Recording recording = new Recording(5_000);
    system.start(recording);
    SteadyProducers.Produced produced = produceElsewhere(remote, recording, 1_000, 5);
    recording.awaitHandled(produced.entries(), System.nanoTime() + TimeUnit.SECONDS.toNanos(30));
    system.stop();
  }

  /**
   * Produces the untimed warm-up, 2,000 entries at 500/s, with sequences shifted past any recording
   * (the relay handles them and records nothing), then waits a second for the relay to finish them.
   * The same-JVM systems and the other JVM's producer process warm up alike.
   */
  static void produceWarmUp(LatencySystem producer) throws Exception {
    SteadyProducers.run(new Shifted(producer, 1_000_000), new Recording(2_000), 500, 4);
    Thread.sleep(1_000);
  }

  /** Produces sequences shifted past any recording, for warm-ups. */
  private record Shifted(LatencySystem system, long shift) implements LatencySystem {
    @Override
    public java.time.Duration pollInterval() {
      return system.pollInterval();
    }

    @Override
    public String name() {
      return system.name();
    }

    @Override
    public void start(Recording recording) {}

    @Override
    public void produce(long sequence) throws Exception {
      system.produce(sequence + shift);
    }

    @Override
    public void stop() {}
  }

  private static Row measure(int round, String backend, int rate, int seconds, LatencySystem system,
      List<String> remote) throws Exception {
    Recording recording = new Recording(rate * seconds);
    system.start(recording);
    long cpuBefore = processCpuNanos();
    SteadyProducers.Produced produced;
    if (remote == null) {
      produced = SteadyProducers.run(system, recording, rate, seconds);
    } else {
      produced = produceElsewhere(remote, recording, rate, seconds);
    }
    // a relay that polls every 15 s must get its next poll and one more before an entry counts as lost
    long graceNanos = Math.max(TimeUnit.SECONDS.toNanos(Math.max(15, seconds * 2L)),
        2 * system.pollInterval().toNanos() + TimeUnit.SECONDS.toNanos(5));
    long grace = System.nanoTime() + graceNanos;
    recording.awaitHandled(produced.entries(), grace);
    double cpu = (processCpuNanos() - cpuBefore) / 1e9;
    String load = Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    system.stop();
    Recording.Summary summary = recording.summarize(produced.entries());
    if (tracePrefix != null) {
      recording.trace(Path.of(String.format(Locale.ROOT, "%s-%d-%s-%d-%s.txt", tracePrefix, round,
          backend.toLowerCase(Locale.ROOT).replace(' ', '-'), rate, remote == null ? "same" : "other")), produced.entries());
    }
    boolean keptUp = keptUp(system, rate, produced, summary, recording.trailAtEnd(produced.entries()));
    Row row = new Row(round, backend, rate, system.name(), remote == null ? "same JVM" : "other JVM", summary,
        produced.achievedPerSecond(), cpu, load, keptUp);
    System.out.println(line(row));
    return row;
  }

  /**
   * A relay kept up with a rate when nothing was lost, its producers reached 95% of the rate (a
   * relay that slows its producers' commits does not keep up), and its last entry was handled
   * within one poll interval plus a second of the last commit: a relay that falls behind trails by
   * more the longer it runs, one that keeps up by at most the wait for its next poll.
   */
  static boolean keptUp(LatencySystem system, int rate, SteadyProducers.Produced produced, Recording.Summary summary,
      long trailNanos) {
    long allowed = system.pollInterval().toNanos() + TimeUnit.SECONDS.toNanos(1);
    return summary.lost() == 0 && produced.achievedPerSecond() >= 0.95 * rate && trailNanos <= allowed;
  }

  /**
   * Climbs the ladder of rates for one system, one row per rate, and stops at the first it does not
   * keep up with.
   *
   * @return the highest rate it kept up with, 0 when none
   */
  private static Ladder climb(String backend, LatencySystem system, List<Integer> ladder, int seconds)
      throws Exception {
    int highest = 0;
    Row last = null;
    for (int rate : ladder) {
      last = measure(0, backend, rate, seconds, system, null);
      if (!last.keptUp()) {
        break;
      }
      highest = rate;
    }
    return new Ladder(backend, system.name(), highest, last);
  }

  /** The highest rate a system kept up with, and the row where the climb ended. */
  record Ladder(String backend, String system, int highest, Row ended) {}

  private static SteadyProducers.Produced produceElsewhere(List<String> remote, Recording recording, int rate,
      int seconds) throws Exception {
    Path commits = Files.createTempFile("latency-commits", ".txt");
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
        RemoteProducer.class.getName()));
    command.addAll(remote);
    command.addAll(List.of("--rate", Integer.toString(rate), "--seconds", Integer.toString(seconds), "--out",
        commits.toString()));
    Process process = new ProcessBuilder(command).inheritIO().start();
    if (process.waitFor() != 0) {
      throw new IllegalStateException("the producer process failed: exit " + process.exitValue());
    }
    double achieved = recording.readCommits(commits);
    Files.delete(commits);
    return new SteadyProducers.Produced(rate * seconds, achieved, 0);
  }

  private static String idleCost(Backend backend, int seconds) throws Exception {
    IdleCost.Counter counter = backend.statementCounter();
    // PostgreSQL's shared counters take up to 10 s to receive what idle sessions did
    Thread.sleep(12_000);
    double baseline = IdleCost.rate(counter, seconds);
    LatencySystem ours = backend.systems().get(0);
    ours.start(new Recording(1));
    // the back-off grows to its 2 s maximum in about 4 s; the counters catch up meanwhile
    Thread.sleep(12_000);
    double withDrain = IdleCost.rate(counter, seconds);
    ours.stop();
    return String.format(Locale.ROOT, "%.2f statements/s with one idle drain, %.2f without (so %.2f for the drain)",
        withDrain, baseline, withDrain - baseline);
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  private static String line(Row row) {
    Recording.Summary s = row.summary();
    return String.format(Locale.ROOT, "| %s | %s | %,d/s | %s | %s | %s | %s | %s | %s | %d/%d | %d | %d | %,.0f/s | %s | %.1f | %s |",
        row.round() == 0 ? "ladder" : Integer.toString(row.round()), row.backend(), row.rate(), row.system(),
        row.producers(), ms(s.p50()), ms(s.p95()), ms(s.p99()), ms(s.max()), s.handled(), s.produced(), s.lost(),
        s.duplicates(), row.achievedRate(), row.keptUp() ? "yes" : "no", row.cpuSeconds(), row.load());
  }

  static String ms(long nanos) {
    double millis = nanos / 1e6;
    if (millis >= 1000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1000);
    }
    return String.format(Locale.ROOT, millis >= 10 ? "%.0f ms" : "%.2f ms", millis);
  }

  private static String report(List<Row> rows, List<Ladder> ladders, Map<String, String> idle, int seconds,
      int rounds, String args) {
    StringBuilder out = new StringBuilder();
    out.append("# Commit-to-handler latency\n\n");
    out.append("Written by `LatencyBenchmark` (`outbox-benchmarks`; docs/development.md, \"run the latency benchmark\"), arguments: `")
        .append(args.isBlank() ? "(defaults)" : args).append("`. ");
    out.append("Producers commit one business `INSERT` and one outbox entry per transaction at a steady rate (entry i is"
        + " due at start + i/rate; 1 thread up to 99/s, 2 up to 999/s, 8 above); the latency is from the commit"
        + " returning to the handler's first line (`System.nanoTime()`, the machine's monotonic clock, also across"
        + " processes). Systems run interleaved within a round, each after an untimed warm-up of 2,000 entries at"
        + " 500/s. \"ours\" is the drain with its defaults over the JPA adapter, producers on plain JDBC"
        + " (`beginAppendOn`, commit, `PendingAppend.committed()`: a drain with room takes the entry claimed on append),"
        + " and on Redis one `append` per entry (no business transaction"
        + " there); \"other JVM\" producers run in a process of their own and append in a JPA transaction"
        + " (`appendWithin`), after the same untimed warm-up of 2,000 entries at 500/s in that process (so its JIT"
        + " and pool are warm, as a producing service is; the drain handles those entries before the timed run, and"
        + " its CPU column includes them); before the first round the relay is warmed for that path too (a wake-up from"
        + " another process, then a due-query claim), by an untimed 5 s at 1,000/s from such a process. `achieved` is the rate the producers reached; `lost` are entries not handled"
        + " 15 s (or twice the run, or two poll intervals and 5 s, whichever is longest) after the last commit;"
        + " `kept up` is defined under the ladder below. Peers as their documentation wires them:"
        + " transaction-outbox's after-commit submitter plus the `flush()` a user schedules (every second),"
        + " db-scheduler with immediate execution (with and without a trigger after commit), namastack-outbox's"
        + " JDBC starter in a Spring Boot context (its defaults, and polling every 100 ms for 100 keys), and"
        + " JobRunr's background job server with its defaults, the job enqueued right after the business commit"
        + " (open-source JobRunr cannot join the business transaction). Design and reading: [wake-ups.md](wake-ups.md).\n\n");
    out.append(MachineLine.describe()).append("\n\n");
    out.append("| round | backend | rate | system | producers | p50 | p95 | p99 | max | handled | lost | dup | achieved | kept up | JVM CPU s | load |\n");
    out.append("| ---: | --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |\n");
    rows.forEach(row -> out.append(line(row)).append('\n'));
    out.append("\nOur p50 ÷ transaction-outbox's p50, same backend, rate and round (same-JVM producers):\n\n");
    Map<String, Row> peers = new HashMap<>();
    rows.stream().filter(row -> row.system().startsWith("transaction-outbox"))
        .forEach(row -> peers.put(row.round() + row.backend() + row.rate(), row));
    for (Row row : rows) {
      Row peer = peers.get(row.round() + row.backend() + row.rate());
      if (peer != null && row.system().startsWith("ours") && row.producers().equals("same JVM")) {
        out.append(String.format(Locale.ROOT, "- round %d, %s, %,d/s: ours %s, transaction-outbox %s (%.2f×)%n",
            row.round(), row.backend(), row.rate(), ms(row.summary().p50()), ms(peer.summary().p50()),
            row.summary().p50() / (double) Math.max(1, peer.summary().p50())));
      }
    }
    if (!ladders.isEmpty()) {
      out.append("\nThe highest rate each kept up with, same-JVM producers, climbing the ladder of rates (rows marked"
          + " `ladder` above) until the first it did not: kept up means nothing lost, producers within 95% of the rate,"
          + " and the last entry handled within the relay's poll interval plus 1 s of the last commit. The climb's"
          + " top rung also fails when the producers alone cannot commit that fast on this machine.\n\n");
      out.append("| backend | system | highest rate kept up with | where the climb ended |\n| --- | --- | ---: | --- |\n");
      for (Ladder climbed : ladders) {
        out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", climbed.backend(), climbed.system(),
            climbed.highest() == 0 ? "none of the ladder" : String.format(Locale.ROOT, "%,d/s", climbed.highest()),
            ended(climbed.ended())));
      }
    }
    out.append("\nIdle cost (server counters, one drain, no appends):\n\n");
    idle.forEach((backend, cost) -> out.append("- ").append(backend).append(": ").append(cost).append('\n'));
    out.append(String.format(Locale.ROOT, "%n%d s of production per row, %d rounds; JVM CPU is the benchmark"
        + " process (relay and same-JVM producers) during the row; load is the 1-minute load average.%n", seconds, rounds));
    return out.toString();
  }

  private static String ended(Row row) {
    if (row == null) {
      return "no rung measured";
    }
    if (row.keptUp()) {
      return String.format(Locale.ROOT, "kept up with the top rung, %,d/s (p99 %s)", row.rate(),
          ms(row.summary().p99()));
    }
    Recording.Summary s = row.summary();
    return String.format(Locale.ROOT, "at %,d/s: producers %,.0f/s, p50 %s, p99 %s, %d lost", row.rate(),
        row.achievedRate(), ms(s.p50()), ms(s.p99()), s.lost());
  }

  static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        throw new IllegalArgumentException("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** One backend of the run and the systems measured on it. */
  private static final class Backend implements AutoCloseable {
    private final String name;
    private final BenchDatabase database;
    private final HostAndPort redis;
    private final List<LatencySystem> systems = new ArrayList<>();
    private final String remoteProducer;

    private Backend(String name, BenchDatabase database, HostAndPort redis, String remoteProducer) {
      this.name = name;
      this.remoteProducer = remoteProducer;
      this.database = database;
      this.redis = redis;
    }

    static Backend open(String which, String postgresql, String mariadb, HostAndPort redis, String remoteProducer)
        throws Exception {
      switch (which) {
        case "postgresql", "mariadb" -> {
          BenchDatabase database = new BenchDatabase(which.equals("postgresql") ? postgresql : mariadb);
          BusinessTable.create(database);
          Backend backend = new Backend(database.name(), database, null, remoteProducer);
          backend.systems.add(new OursOnSql(database));
          backend.systems.add(new TransactionOutboxSystem(database));
          backend.systems.add(new DbSchedulerSystem(database, false));
          backend.systems.add(new DbSchedulerSystem(database, true));
          backend.systems.add(NamastackSystem.withDefaults(database));
          backend.systems.add(NamastackSystem.tuned(database));
          backend.systems.add(new JobRunrSystem(database));
          return backend;
        }
        case "redis" -> {
          Backend backend = new Backend("Redis", null, redis, remoteProducer);
          backend.systems.add(new OursOnRedis(redis));
          return backend;
        }
        default -> throw new IllegalArgumentException("--backends takes postgresql, mariadb, redis; got " + which);
      }
    }

    String name() {
      return name;
    }

    List<LatencySystem> systems() {
      return systems;
    }

    List<String> remoteArguments() {
      return database != null ? List.of("--backend", "sql", "--url", database.url(), "--producer", remoteProducer)
          : List.of("--backend", "redis", "--url", redis.toString());
    }

    IdleCost.Counter statementCounter() {
      return database != null ? IdleCost.of(database) : IdleCost.of(redis);
    }

    @Override
    public void close() throws Exception {
      for (LatencySystem system : systems) {
        system.close();
      }
      if (database != null) {
        database.close();
      }
    }
  }
}
