package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.HistoryRecorder;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.TransitionHistory;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Shutting a drain down mid-run loses nothing: a second drain finishes the rest")
class DrainShutdownTest {

  private static final int ENTRIES = 2_000;
  private static final Duration LEASE = Duration.ofSeconds(30);

  @Test
  void secondDrainFinishesWhatTheFirstLeft() throws InterruptedException {
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    TransitionHistory history = new TransitionHistory();
    InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
    HistoryRecorder.recording(store, history);
    List<OutboxEntry> appended = store.appendAll(IntStream.range(0, ENTRIES)
        .mapToObj(i -> OutboxMessage.of(i == 700 ? "stuck" : "ok", new byte[] {1}))
        .toList());
    Set<EntryId> handledSuccessfully = ConcurrentHashMap.newKeySet();
    CountDownLatch stuckStarted = new CountDownLatch(1);
    CountDownLatch neverReleased = new CountDownLatch(1);
    OutboxMessageHandler firstHandler = message -> {
      if (message.entry().message().topic().equals("stuck")) {
        stuckStarted.countDown();
        neverReleased.await();
      }
      handledSuccessfully.add(message.entry().id());
    };

    OutboxDrain first = drain(store, firstHandler, "first", clock);
    first.start();
    assertThat(stuckStarted.await(2, TimeUnit.MINUTES)).as("the stuck handler started").isTrue();
    boolean finishedInTime = first.stop(Duration.ofMillis(200));

    assertThat(finishedInTime).as("the stuck handler could not finish in time").isFalse();
    DrainStats firstStats = first.stats();
    assertThat(firstStats.leftToLeaseExpiry()).isGreaterThanOrEqualTo(1);
    assertThat(firstStats.inFlight()).isZero();
    EntryId stuck = appended.get(700).id();
    assertThat(store.find(stuck).orElseThrow().status()).as("left claimed, to lease expiry").isEqualTo(EntryStatus.CLAIMED);
    long finishedByFirst = history.finishedEntryCount();
    assertThat(finishedByFirst).as("the first drain stopped mid-run").isLessThan(ENTRIES);

    clock.advance(LEASE);
    OutboxDrain second = drain(store, message -> handledSuccessfully.add(message.entry().id()), "second", clock);
    second.start();
    CountDownLatch pace = new CountDownLatch(1);
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (history.finishedEntryCount() < ENTRIES) {
      assertThat(pace.await(20, TimeUnit.MILLISECONDS)).isFalse();
      assertThat(System.nanoTime()).as("the second drain finishes the rest within two minutes").isLessThan(deadline);
    }
    second.stop(Duration.ofSeconds(10));

    List<EntryId> ids = appended.stream().map(OutboxEntry::id).toList();
    assertThat(history.violations(ids, store::find, false)).isEmpty();
    for (EntryId id : ids) {
      assertThat(store.find(id).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
      assertThat(handledSuccessfully).as("delivered only after a handler delivered it").contains(id);
    }
    System.out.printf("Shutdown mid-run: first drain finished %d of %d and left %d to lease expiry;"
        + " the second finished the rest%n", finishedByFirst, ENTRIES, firstStats.leftToLeaseExpiry());
  }

  private static OutboxDrain drain(InMemoryOutboxStore store, OutboxMessageHandler handler, String name, MutableClock clock) {
    return OutboxDrain.builder(store, handler)
        .workerId(WorkerId.of(name))
        .lease(LEASE)
        .concurrency(4)
        .batchSize(4)
        .idleBackoff(Duration.ofMillis(1), Duration.ofMillis(10))
        .clock(clock)
        .build();
  }
}
