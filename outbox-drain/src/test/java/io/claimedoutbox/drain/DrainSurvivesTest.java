package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** No part of the drain stops silently, an Error included, and its memory is bounded by payload bytes. */
@DisplayName("The drain survives Errors and bounds what it holds by payload bytes")
class DrainSurvivesTest {

  private static final int MIB = 1 << 20;

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final ManualExecutor handlers = new ManualExecutor();
  private final ScheduledExecutorService unusedScheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void shutDown() {
    unusedScheduler.shutdownNow();
  }

  /** The first claims throw what they are given; later ones work. */
  private static final class FailingClaims extends ForwardingOutboxStore {
    final List<Error> errors;
    final AtomicInteger calls = new AtomicInteger();

    FailingClaims(InMemoryOutboxStore delegate, Error... errors) {
      super(delegate);
      this.errors = List.of(errors);
    }

    @Override
    public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
      int call = calls.getAndIncrement();
      if (call < errors.size()) {
        throw errors.get(call);
      }
      return super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
    }
  }

  @Test
  @DisplayName("a claim that throws OutOfMemoryError is logged, counted, and the poller claims again")
  void claimThrowingAnErrorIsSurvived() throws InterruptedException {
    FailingClaims store = new FailingClaims(backing, new OutOfMemoryError("Java heap space (staged)"));
    OutboxEntry entry = store.append(OutboxMessage.of("orders", new byte[] {1}));
    CountDownLatch delivered = new CountDownLatch(1);
    OutboxDrain drain = OutboxDrain.builder(store, message -> delivered.countDown())
        .workerId(WorkerId.of("drain-1")).clock(clock).build();
    drain.start();
    try {
      assertThat(delivered.await(1, TimeUnit.MINUTES)).as("delivered after the failed claim").isTrue();
    } finally {
      drain.stop(Duration.ofSeconds(10));
    }

    DrainStats stats = drain.stats();
    assertThat(stats.claimFailures()).isEqualTo(1);
    assertThat(stats.claimFailuresInARow()).as("claiming again").isZero();
    assertThat(stats.errors()).isEqualTo(1);
    assertThat(stats.lastFailure()).hasValueSatisfying(last -> assertThat(last)
        .startsWith("claim at ").contains("java.lang.OutOfMemoryError: Java heap space (staged)"));
    assertThat(backing.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
  }

  @Test
  @DisplayName("a handler that throws an Error fails its entry for a retry; the handler thread and the drain carry on")
  void handlerThrowingAnErrorFailsTheEntry() {
    OutboxEntry entry = backing.append(OutboxMessage.of("orders", new byte[] {1}));
    OutboxEntry next = backing.append(OutboxMessage.of("orders", new byte[] {2}));
    OutboxDrain drain = OutboxDrain.builder(backing, message -> {
      if (message.entry().id().equals(entry.id())) {
        throw new AssertionError("a handler's broken assumption");
      }
    }).workerId(WorkerId.of("drain-1")).clock(clock).executors(handlers, unusedScheduler).build();

    assertThat(drain.pollOnce()).isEqualTo(2);
    handlers.runAll();

    OutboxEntry failed = backing.find(entry.id()).orElseThrow();
    assertThat(failed.status()).isEqualTo(EntryStatus.FAILED);
    assertThat(failed.lastError()).hasValueSatisfying(error -> assertThat(error).contains("AssertionError"));
    assertThat(backing.find(next.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(drain.stats().errors()).isEqualTo(1);
    assertThat(drain.stats().inFlight()).isZero();
  }

  @Test
  @DisplayName("claims stop at the payload budget and resume as held entries finish; a lone large entry still moves")
  void claimsAreBoundedByPayloadBytes() {
    IntStream.range(0, 7).forEach(i -> backing.append(OutboxMessage.of("large", new byte[MIB])));
    OutboxDrain drain = OutboxDrain.builder(backing, message -> { })
        .workerId(WorkerId.of("drain-1")).clock(clock).executors(handlers, unusedScheduler)
        .maxHeldPayloadBytes(3L * MIB).build();

    assertThat(drain.pollOnce()).as("the first claim: 3 MiB of 1 MiB payloads").isEqualTo(3);
    assertThat(drain.stats().heldPayloadBytes()).isEqualTo(3L * MIB);
    assertThat(drain.pollOnce()).as("nothing more while the budget is held").isZero();

    handlers.runAll();
    assertThat(drain.stats().heldPayloadBytes()).isZero();
    assertThat(drain.pollOnce()).isEqualTo(3);
    handlers.runAll();
    assertThat(drain.pollOnce()).isEqualTo(1);
    handlers.runAll();
    assertThat(drain.stats().handlerSucceeded()).isEqualTo(7);
  }
}
