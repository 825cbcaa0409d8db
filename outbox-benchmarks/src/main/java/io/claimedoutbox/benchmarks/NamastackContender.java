package io.claimedoutbox.benchmarks;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * namastack-outbox 1.6.0 draining a backlog in its Spring Boot context ({@link NamastackContext}):
 * one record per entry, each with its own key, scheduled through {@code outbox.schedule} in
 * transactions of 1,000. Its defaults (10 keys every 2 s) would take hours over 200,000 entries, so
 * it runs as a team with a backlog would set it: polling every 100 ms for 1,000 keys, {@code
 * workers} processing threads. The context stays up between runs (its start-up is not timed);
 * while a run is seeded its handler waits at a gate, so at most the one batch it fetched meanwhile
 * is in hand when the timed drain opens the gate.
 */
final class NamastackContender implements Contender {

  private static final int SEED_TRANSACTION = 1_000;

  private final BenchDatabase database;
  private final Duration timeout;
  private volatile Handled current;
  private volatile CountDownLatch gate = new CountDownLatch(1);
  private NamastackContext context;
  private int contextWorkers;

  NamastackContender(BenchDatabase database, Duration timeout) {
    this.database = database;
    this.timeout = timeout;
  }

  @Override
  public String name() {
    return "namastack-outbox 1.6.0 (poll 100 ms, 1,000 keys)";
  }

  @Override
  public String backend() {
    return database.name();
  }

  private void handle(long sequence) {
    try {
      gate.await();
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return;
    }
    current.delivered(Long.toString(sequence));
  }

  /** The processing threads are a context setting: another worker count gets a context of its own. */
  @Override
  public void prepare(int workers) {
    if (context != null && contextWorkers == workers) {
      return;
    }
    if (context != null) {
      gate.countDown();
      context.close();
    }
    context = NamastackContext.start(database.dataSource(), Map.of(
        "namastack.outbox.polling.fixed.interval", "100ms",
        "namastack.outbox.polling.batch-size", "1000",
        "namastack.outbox.processing.executor-core-pool-size", Integer.toString(workers),
        "namastack.outbox.processing.executor-max-pool-size", Integer.toString(workers)), this::handle);
    contextWorkers = workers;
  }

  @Override
  public void seed(int entries) throws Exception {
    gate = new CountDownLatch(1);
    database.execute("DELETE FROM outbox_record");
    for (int first = 0; first < entries; first += SEED_TRANSACTION) {
      int from = first;
      context.transactions().executeWithoutResult(status -> {
        for (int i = from; i < Math.min(entries, from + SEED_TRANSACTION); i++) {
          context.outbox().schedule(new NamastackContext.EntryPayload(i), "entry-" + i);
        }
      });
    }
  }

  @Override
  public void drain(int workers, Handled handled) throws Exception {
    current = handled;
    gate.countDown();
    long deadline = System.nanoTime() + timeout.toNanos();
    handled.await(timeout);
    // as for our drain, the run ends when the results are written, not when the handlers returned
    while (undone() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  @Override
  public long undone() throws Exception {
    return database.count("SELECT COUNT(*) FROM outbox_record WHERE status <> 'COMPLETED'");
  }

  @Override
  public void close() {
    gate.countDown();
    if (context != null) {
      context.close();
    }
  }
}
