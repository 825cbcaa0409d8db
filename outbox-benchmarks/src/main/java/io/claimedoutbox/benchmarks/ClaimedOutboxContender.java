package io.claimedoutbox.benchmarks;

import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Our drain, as a user runs it: {@link OutboxDrain} with default settings and {@code workers}
 * handlers, over one adapter's store; its backlog without ordering keys, or spread round robin over
 * a number of keys (what ordering costs).
 */
final class ClaimedOutboxContender implements Contender {

  /** The store under the drain, and what the benchmark needs of it beyond the port. */
  interface Backend extends AutoCloseable {
    String name();

    OutboxClaimOutcomeStore store();

    /** Removes every entry. */
    void reset() throws Exception;

    /** @return entries not delivered */
    long undone() throws Exception;
  }

  static final String TOPIC = "bench";

  private final Backend backend;
  private final Duration timeout;
  private final int orderingKeys;
  private final StoreCallCounter counting = new StoreCallCounter();
  private String lastCalls = "";

  ClaimedOutboxContender(Backend backend, Duration timeout) {
    this(backend, timeout, 0);
  }

  /** @param orderingKeys how many distinct ordering keys the backlog uses; 0 for none */
  ClaimedOutboxContender(Backend backend, Duration timeout, int orderingKeys) {
    this.backend = backend;
    this.timeout = timeout;
    this.orderingKeys = orderingKeys;
  }

  /** @return the store calls of the last drain: how many, how big, how long */
  String lastCalls() {
    return lastCalls;
  }

  @Override
  public String name() {
    return orderingKeys == 0 ? BenchmarkReport.OURS
        : String.format(java.util.Locale.ROOT, "%s, %,d ordering key%s", BenchmarkReport.OURS, orderingKeys,
            orderingKeys == 1 ? "" : "s");
  }

  @Override
  public String backend() {
    return backend.name();
  }

  @Override
  public void seed(int entries) throws Exception {
    backend.reset();
    List<OutboxMessage> batch = new ArrayList<>(1000);
    for (int i = 0; i < entries; i++) {
      OutboxMessage message = OutboxMessage.of(TOPIC, Payloads.of(i));
      batch.add(orderingKeys == 0 ? message : message.withOrderingKey("key-" + i % orderingKeys));
      if (batch.size() == 1000 || i == entries - 1) {
        backend.store().appendAll(batch);
        batch.clear();
      }
    }
  }

  @Override
  public void drain(int workers, Handled handled) throws Exception {
    OutboxDrain drain = OutboxDrain.builder(backend.store(),
            message -> handled.delivered(new String(message.entry().message().payload(), StandardCharsets.US_ASCII)))
        .workerId(WorkerId.of("bench-" + workers))
        .concurrency(workers)

        .build();
    counting.summaryAndReset(1);
    long started = System.nanoTime();
    try (OutboxStoreListener.Registration listening = backend.store().listen(counting)) {
      drain.start();
      try {
        handled.await(timeout);
      } finally {
        drain.stop(Duration.ofSeconds(30));
        lastCalls = counting.summaryAndReset((System.nanoTime() - started) / 1e9);
      }
    }
  }

  @Override
  public long undone() throws Exception {
    return backend.undone();
  }

  @Override
  public void close() throws Exception {
    backend.close();
  }
}
