package io.claimedoutbox.cli;

import io.claimedoutbox.conformance.HistoryRecorder;
import io.claimedoutbox.conformance.TransitionHistory;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.drain.PermanentDeliveryFailure;
import io.claimedoutbox.drain.RetryPolicy;
import io.claimedoutbox.micrometer.OutboxStoreMeters;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * Runs the race: appends the entries, starts the drains over the observed store, waits until every
 * entry is delivered or dead-lettered (or the timeout passes), and checks the recorded history with
 * the conformance suite's rules.
 */
final class RaceWorkload {

  private RaceWorkload() {}

  static RaceResult run(BackendSession backend, RaceSettings settings, Clock clock, IntConsumer progress)
      throws InterruptedException {
    TransitionHistory history = new TransitionHistory();
    OutboxClaimOutcomeStore store = backend.store();
    HistoryRecorder recording = HistoryRecorder.recording(store, history);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // the meters listen to the backend's store, as in production, while the race runs
    OutboxStoreMeters.observe(store, registry);

    List<EntryId> appended = new ArrayList<>();
    for (int first = 0; first < settings.entries(); first += 500) {
      List<OutboxMessage> batch = IntStream.range(first, Math.min(settings.entries(), first + 500))
          .mapToObj(i -> OutboxMessage.of("race", ("message " + i).getBytes(StandardCharsets.UTF_8)))
          .toList();
      store.appendAll(batch).forEach(entry -> appended.add(entry.id()));
    }

    long started = System.nanoTime();
    List<OutboxDrain> drains = new ArrayList<>();
    for (int i = 0; i < settings.workers(); i++) {
      OutboxDrain drain = OutboxDrain.builder(store, handler(settings))
          .workerId(WorkerId.of("race-worker-" + (i + 1)))
          .concurrency(settings.handlersPerWorker())
          .lease(settings.lease())
          .leaseRenewal(settings.lease(), settings.lease().dividedBy(10))
          .retryPolicy(RetryPolicy.builder().initialBackoff(Duration.ofMillis(20)).maxBackoff(Duration.ofMillis(200)).maxAttempts(4).build())
          .idleBackoff(Duration.ofMillis(1), Duration.ofMillis(50))
          .clock(clock)
          .build();
      drains.add(drain);
      drain.start();
    }
    long deadline = started + settings.timeout().toNanos();
    int finished = (int) history.finishedEntryCount();
    while (finished < settings.entries() && System.nanoTime() < deadline) {
      progress.accept(finished);
      TimeUnit.MILLISECONDS.sleep(100);
      finished = (int) history.finishedEntryCount();
    }
    progress.accept(finished);
    Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
    drains.forEach(drain -> drain.stop(settings.lease().multipliedBy(4)));

    boolean atomic = store.capabilities().contains(StoreCapability.ATOMIC_EVALUATION);
    List<String> violations = finished < settings.entries()
        ? List.of(settings.entries() - finished + " entries were not finished within " + settings.timeout().toSeconds() + " s")
        : history.violations(appended, store::find, atomic);
    long delivered = appended.stream()
        .filter(id -> store.find(id).map(entry -> entry.status() == EntryStatus.DELIVERED).orElse(false))
        .count();
    return new RaceResult(backend.label(), settings, history.outcomesByTransition(), violations, delivered,
        finished - delivered, history.claimCount(), history.reclaimCount(), elapsed,
        LatencySummary.ofNanos(recording.transitionNanos()), finished >= settings.entries());
  }

  /**
   * Simulated emission: a few milliseconds of work; a {@code slowFraction} of calls outlast the
   * lease; a {@code failureFraction} fail and are retried, one in ten of those for good.
   */
  private static OutboxMessageHandler handler(RaceSettings settings) {
    return message -> {
      ThreadLocalRandom random = ThreadLocalRandom.current();
      double dice = random.nextDouble();
      if (dice < settings.slowFraction()) {
        Thread.sleep(settings.lease().toMillis() + 50);
      } else {
        Thread.sleep(random.nextInt(3));
      }
      double failure = random.nextDouble();
      if (failure < settings.failureFraction() / 10) {
        throw new PermanentDeliveryFailure("downstream rejected message " + message.entry().id());
      }
      if (failure < settings.failureFraction()) {
        throw new IOException("downstream unavailable");
      }
    };
  }
}
