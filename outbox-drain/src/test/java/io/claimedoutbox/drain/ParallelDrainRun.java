package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.HistoryRecorder;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.TransitionHistory;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * Several drains in parallel over one store, with handlers that sometimes take longer than the
 * lease (they move the shared clock past it), sometimes fail, rarely fail for good. The recorded
 * history is checked with the conformance suite's H1 rules. Half the drains
 * renew leases promptly; the other half effectively never do (a stalled renewer), so their slow
 * entries are taken over by others and their late results come back not applied. Checks that
 * every entry ends delivered or dead-lettered, each attributed to exactly one APPLIED result, and
 * that the store's listener heard each transition once (its applied total equals the applied results observed).
 */
final class ParallelDrainRun {

  static final Duration LEASE = Duration.ofSeconds(30);

  private ParallelDrainRun() {}

  static void run(String backend, OutboxClaimOutcomeStore rawStore, MutableClock clock, int drains, int entries)
      throws InterruptedException {
    TransitionHistory history = new TransitionHistory();
    OutcomeTally tally = new OutcomeTally();
    OutboxClaimOutcomeStore store = rawStore;
    HistoryRecorder.recording(store, history);
    store.listen(tally);
    List<EntryId> ids = new ArrayList<>();
    for (int first = 0; first < entries; first += 500) {
      List<OutboxMessage> batch = IntStream.range(first, Math.min(entries, first + 500))
          .mapToObj(i -> OutboxMessage.of("parallel", ("m" + i).getBytes(StandardCharsets.UTF_8)))
          .toList();
      store.appendAll(batch).forEach(entry -> ids.add(entry.id()));
    }

    OutboxMessageHandler flakyAndSometimesSlow = message -> {
      int dice = ThreadLocalRandom.current().nextInt(1000);
      if (dice < 20) {
        clock.advance(LEASE.plusSeconds(1));
      } else if (dice < 60) {
        throw new IOException("transient broker failure");
      } else if (dice < 65) {
        throw new PermanentDeliveryFailure("rejected for good");
      }
    };
    List<OutboxDrain> running = new ArrayList<>();
    for (int i = 0; i < drains; i++) {
      OutboxDrain drain = OutboxDrain.builder(store, flakyAndSometimesSlow)
          .workerId(WorkerId.of(backend + "-drain-" + i))
          .batchSize(8)
          .concurrency(4)
          .lease(LEASE)
          .retryPolicy(RetryPolicy.builder().maxBackoff(Duration.ofSeconds(10)).maxAttempts(4).build())
          .idleBackoff(Duration.ofMillis(1), Duration.ofMillis(20))
          .leaseRenewal(i % 2 == 0 ? Duration.ofMillis(10) : Duration.ofHours(1), Duration.ofSeconds(15))
          .clock(clock)
          .build();
      running.add(drain);
      drain.start();
    }
    CountDownLatch pace = new CountDownLatch(1);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (history.finishedEntryCount() < entries) {
      assertThat(pace.await(20, TimeUnit.MILLISECONDS)).isFalse();
      clock.advance(Duration.ofSeconds(1));
      assertThat(System.nanoTime()).as("the drains finish within five minutes").isLessThan(deadline);
    }
    running.forEach(drain -> assertThat(drain.stop(Duration.ofSeconds(30))).isTrue());

    assertThat(history.violations(ids, store::find, false))
        .as("every entry finished, each attributed to exactly one APPLIED result, no two live claims, nothing lost")
        .isEmpty();
    Map<String, Long> byOutcome = tally.byOutcome();
    assertThat(byOutcome.get("applied")).as("the store's listener heard every APPLIED result once")
        .isEqualTo((long) history.appliedCount());
    long attempts = byOutcome.values().stream().mapToLong(Long::longValue).sum();
    assertThat(attempts).as("the store's listener heard every transition once")
        .isEqualTo(history.outcomeCounts().values().stream().mapToInt(Integer::intValue).sum());
    long delivered = ids.stream().filter(id -> store.find(id).orElseThrow().status()
        == io.claimedoutbox.domain.EntryStatus.DELIVERED).count();
    System.out.printf("Parallel drain on %s: %d drains, %d entries (%d delivered, %d dead-lettered);"
            + " transitions heard by the store's listener, by outcome %s%n",
        backend, drains, entries, delivered, entries - delivered, byOutcome);
  }
}
