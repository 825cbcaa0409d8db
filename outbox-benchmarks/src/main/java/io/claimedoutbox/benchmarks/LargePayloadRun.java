package io.claimedoutbox.benchmarks;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A drain with default settings over entries of the largest payload a message may carry (1 MiB), in
 * a small heap: the drain's memory must be bounded by payload bytes, not by entry counts (a claim
 * batch of 500 and a buffer of 1,000 would hold 1.5 GiB). Appends {@code --entries} random payloads
 * on PostgreSQL (incompressible, so the database stores and sends every byte), drains them with
 * {@code concurrency(4)} and otherwise the defaults, and reports deliveries, time, the heap's peak
 * and the drain's failures. Exits 1 unless every entry was delivered.
 *
 * <p>{@code java -Xmx256m -cp outbox-benchmarks.jar io.claimedoutbox.benchmarks.LargePayloadRun
 * [--entries 5000] [--postgresql URL] [--timeout 20m]}
 */
public final class LargePayloadRun {

  private static final int APPEND_BATCH = 16;

  private LargePayloadRun() {}

  /**
   * @param args see the class comment
   * @throws Exception when the database fails
   */
  public static void main(String[] args) throws Exception {
    int entries = 5_000;
    String url = "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres";
    Duration timeout = Duration.ofMinutes(20);
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--entries" -> entries = Integer.parseInt(args[i + 1]);
        case "--postgresql" -> url = args[i + 1];
        case "--timeout" -> timeout = Duration.parse("PT" + args[i + 1].toUpperCase(Locale.ROOT));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    long maxHeap = Runtime.getRuntime().maxMemory();
    System.out.printf(Locale.ROOT, "large payloads: %,d entries of %,d bytes on PostgreSQL, heap limit %d MiB%n",
        entries, OutboxMessage.MAX_PAYLOAD_BYTES, maxHeap >> 20);
    try (BenchDatabase database = new BenchDatabase(url);
        JpaTestKit kit = JpaTestKit.create(database.dataSource(), database.database(), database.name())) {
      OutboxClaimOutcomeStore store = kit.storeBuilder().build();
      long appendStarted = System.nanoTime();
      for (int appended = 0; appended < entries; appended += APPEND_BATCH) {
        List<OutboxMessage> batch = new ArrayList<>();
        for (int i = appended; i < Math.min(entries, appended + APPEND_BATCH); i++) {
          byte[] payload = new byte[OutboxMessage.MAX_PAYLOAD_BYTES];
          ThreadLocalRandom.current().nextBytes(payload);
          batch.add(OutboxMessage.of("large", payload));
        }
        store.appendAll(batch);
      }
      System.out.printf(Locale.ROOT, "appended in %.1f s%n", (System.nanoTime() - appendStarted) / 1e9);

      AtomicLong delivered = new AtomicLong();
      AtomicLong bytesSeen = new AtomicLong();
      OutboxDrain drain = OutboxDrain.builder(store, message -> {
        bytesSeen.addAndGet(message.entry().message().payloadSize());
        delivered.incrementAndGet();
      }).workerId(WorkerId.of("large-payloads")).build();
      resetPeaks();
      long started = System.nanoTime();
      drain.start();
      long deadline = started + timeout.toNanos();
      while (delivered.get() < entries && System.nanoTime() < deadline) {
        TimeUnit.MILLISECONDS.sleep(200);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      drain.stop(Duration.ofSeconds(30));
      DrainStats stats = drain.stats();
      long undone = database.count("SELECT COUNT(*) FROM outbox_entry WHERE status <> 'DELIVERED'");
      System.out.printf(Locale.ROOT, "delivered %,d of %,d in %.1f s (%.1f MiB/s), heap peak %d MiB of %d MiB,"
              + " undone %,d, claim failures %d, errors %d%s%n",
          delivered.get(), entries, seconds, bytesSeen.get() / 1048576.0 / seconds, peakHeap() >> 20, maxHeap >> 20,
          undone, stats.claimFailures(), stats.errors(), stats.lastFailure().map(last -> ", last: " + last).orElse(""));
      System.exit(delivered.get() >= entries && undone == 0 ? 0 : 1);
    }
  }

  private static void resetPeaks() {
    ManagementFactory.getMemoryPoolMXBeans().forEach(MemoryPoolMXBean::resetPeakUsage);
  }

  /** The sum of the heap pools' peaks since {@link #resetPeaks}: an upper bound of the heap in use. */
  private static long peakHeap() {
    return ManagementFactory.getMemoryPoolMXBeans().stream().filter(pool -> pool.getType() == MemoryType.HEAP)
        .mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
  }
}
