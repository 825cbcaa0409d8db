package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The drain driven step by step: pollOnce, the queued handlers, renewLeases, on the test's thread. */
@DisplayName("The drain: retries, dead letters, lease renewal, bounded concurrency")
class OutboxDrainTest {

  private static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final RetryPolicy RETRY = RetryPolicy.builder()
      .initialBackoff(Duration.ofSeconds(10)).maxBackoff(Duration.ofMinutes(1)).maxAttempts(3).build();

  private final MutableClock clock = new MutableClock(START);
  private final InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final InMemoryOutboxStore store = backing;
  private final ManualExecutor handlers = new ManualExecutor();
  private final ScheduledExecutorService unusedScheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void shutDown() {
    unusedScheduler.shutdownNow();
  }

  private OutboxDrain.Builder drain(OutboxMessageHandler handler) {
    return OutboxDrain.builder(store, handler)
        .workerId(WorkerId.of("drain-1"))
        .lease(LEASE)
        .leaseRenewal(Duration.ofSeconds(5), Duration.ofSeconds(15))
        .retryPolicy(RETRY)
        .clock(clock)
        .executors(handlers, unusedScheduler);
  }

  private OutboxEntry append() {
    return store.append(OutboxMessage.of("t", new byte[] {1}));
  }

  private OutboxEntry stored(OutboxEntry entry) {
    return store.find(entry.id()).orElseThrow();
  }

  @Test
  void deliveredEntriesAreMarkedDelivered() {
    List<OutboxEntry> entries = List.of(append(), append(), append());
    List<Long> generationsSeen = new ArrayList<>();
    OutboxDrain drain = drain(message -> generationsSeen.add(message.tokenGeneration())).build();

    assertThat(drain.pollOnce()).isEqualTo(3);
    handlers.runAll();

    entries.forEach(entry -> assertThat(stored(entry).status()).isEqualTo(EntryStatus.DELIVERED));
    assertThat(generationsSeen).containsExactly(1L, 1L, 1L);
    assertThat(drain.stats()).isEqualTo(new DrainStats(3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, java.util.Optional.empty()));
  }

  @Test
  void transientFailuresAreRetriedWithBackoffThenDelivered() {
    OutboxEntry entry = append();
    AtomicInteger calls = new AtomicInteger();
    List<Integer> attempts = new ArrayList<>();
    OutboxDrain drain = drain(message -> {
      attempts.add(message.attempt());
      if (calls.incrementAndGet() == 1) {
        throw new IOException("broker down");
      }
    }).build();

    drain.pollOnce();
    handlers.runAll();
    OutboxEntry failed = stored(entry);
    assertThat(failed.status()).isEqualTo(EntryStatus.FAILED);
    assertThat(failed.lastError()).hasValueSatisfying(error -> assertThat(error).contains("IOException: broker down"));
    assertThat(failed.availableAt()).isBetween(START.plusSeconds(5), START.plusSeconds(10));
    assertThat(drain.pollOnce()).as("not due before the retry time").isZero();

    clock.advance(Duration.ofSeconds(10));
    drain.pollOnce();
    handlers.runAll();

    assertThat(stored(entry).status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(attempts).containsExactly(1, 2);
  }

  @Test
  void exhaustedAttemptsAreDeadLettered() {
    OutboxEntry entry = append();
    OutboxDrain drain = drain(message -> {
      throw new IOException("still down");
    }).build();

    for (int round = 0; round < 3; round++) {
      drain.pollOnce();
      handlers.runAll();
      clock.advance(Duration.ofMinutes(2));
    }

    OutboxEntry dead = stored(entry);
    assertThat(dead.status()).isEqualTo(EntryStatus.DEAD_LETTERED);
    assertThat(dead.attempts()).isEqualTo(3);
    assertThat(dead.lastError()).hasValueSatisfying(reason -> assertThat(reason).startsWith("gave up after 3 attempts"));
  }

  @Test
  void permanentFailuresAreDeadLetteredAtOnce() {
    OutboxEntry entry = append();
    OutboxDrain drain = drain(message -> {
      throw new PermanentDeliveryFailure("schema rejected");
    }).build();

    drain.pollOnce();
    handlers.runAll();

    assertThat(stored(entry).status()).isEqualTo(EntryStatus.DEAD_LETTERED);
    assertThat(stored(entry).lastError()).hasValueSatisfying(reason -> assertThat(reason).contains("schema rejected"));
  }

  @Test
  void userMarkedPermanentExceptionsAreDeadLetteredAtOnce() {
    OutboxEntry entry = append();
    OutboxDrain drain = drain(message -> {
      throw new IllegalArgumentException("bad payload");
    }).permanentWhen(failure -> failure instanceof IllegalArgumentException).build();

    drain.pollOnce();
    handlers.runAll();

    assertThat(stored(entry).status()).isEqualTo(EntryStatus.DEAD_LETTERED);
  }

  @Test
  void aPoisonEntryNeverBlocksTheOthers() {
    OutboxEntry poison = store.append(OutboxMessage.of("poison", new byte[] {0}));
    List<OutboxEntry> healthy = List.of(append(), append());
    OutboxDrain drain = drain(message -> {
      if (message.entry().message().topic().equals("poison")) {
        throw new IllegalStateException("cannot serialise");
      }
    }).build();

    drain.pollOnce();
    handlers.runAll();

    healthy.forEach(entry -> assertThat(stored(entry).status()).isEqualTo(EntryStatus.DELIVERED));
    assertThat(stored(poison).status()).isEqualTo(EntryStatus.FAILED);
  }

  @Test
  void longHandlersHaveTheirLeaseRenewed() {
    OutboxEntry entry = append();
    OutboxDrain[] self = new OutboxDrain[1];
    List<Integer> renewed = new ArrayList<>();
    self[0] = drain(message -> {
      clock.advance(Duration.ofSeconds(20));
      renewed.add(self[0].renewLeases());
      clock.advance(Duration.ofSeconds(20));
    }).build();

    self[0].pollOnce();
    handlers.runAll();

    assertThat(renewed).containsExactly(1);
    OutboxEntry delivered = stored(entry);
    assertThat(delivered.status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(delivered.revision()).as("append, claim, save, delivered").isEqualTo(4);
  }

  @Test
  void aRenewalThatIsNotAppliedStopsTheWorkAndRecordsNothing() {
    OutboxEntry entry = append();
    OutboxDrain[] self = new OutboxDrain[1];
    List<Boolean> lostSeen = new ArrayList<>();
    self[0] = drain(message -> {
      clock.advance(LEASE.plusSeconds(1));
      store.claimDue(WorkerId.of("other-worker"), 1, LEASE);
      self[0].renewLeases();
      lostSeen.add(message.isClaimLost());
      lostSeen.add(Thread.currentThread().isInterrupted());
    }).build();

    self[0].pollOnce();
    handlers.runAll();

    assertThat(lostSeen).containsExactly(true, true);
    OutboxEntry stillHeld = stored(entry);
    assertThat(stillHeld.status()).isEqualTo(EntryStatus.CLAIMED);
    assertThat(stillHeld.currentClaim().orElseThrow().owner()).isEqualTo(WorkerId.of("other-worker"));
    assertThat(self[0].stats().claimsLost()).isEqualTo(1);
    assertThat(Thread.currentThread().isInterrupted()).as("the interrupt does not leak out of the handler").isFalse();
  }

  @Test
  void concurrencyPlusBufferBoundsHowManyEntriesAreHeld() {
    for (int i = 0; i < 6; i++) {
      append();
    }
    OutboxDrain drain = drain(message -> { }).concurrency(2).bufferSize(1).batchSize(2).build();

    assertThat(drain.pollOnce()).as("one batch").isEqualTo(2);
    assertThat(drain.pollOnce()).as("the room left: two handlers and one waiting").isEqualTo(1);
    assertThat(drain.pollOnce()).as("no room").isZero();
    handlers.runAll();
    assertThat(drain.pollOnce()).isEqualTo(2);
  }

  @Test
  void aWaitingClaimWhoseLeaseIsMostlySpentIsRenewedBeforeItsHandlerStarts() {
    OutboxEntry entry = append();
    List<Instant> leaseSeenByHandler = new ArrayList<>();
    OutboxDrain drain = drain(message -> leaseSeenByHandler.add(stored(entry).currentClaim().orElseThrow().leaseUntil()))
        .build();

    drain.pollOnce();
    clock.advance(Duration.ofSeconds(20));
    handlers.runAll();

    assertThat(leaseSeenByHandler).containsExactly(START.plusSeconds(20).plus(LEASE));
    assertThat(stored(entry).status()).isEqualTo(EntryStatus.DELIVERED);
  }

  @Test
  void aWaitingClaimThatWasTakenOverIsNeverHandled() {
    append();
    List<OutboxEntry> handled = new ArrayList<>();
    OutboxDrain drain = drain(message -> handled.add(message.entry())).build();

    drain.pollOnce();
    clock.advance(LEASE);
    store.claimDue(WorkerId.of("other-worker"), 1, LEASE);
    handlers.runAll();

    assertThat(handled).isEmpty();
    assertThat(drain.stats().claimsLost()).isEqualTo(1);
    assertThat(drain.stats().inFlight()).isZero();
  }

  @Test
  void resultsThatFinishWhileAWriteIsInFlightAreRecordedInOneCall() {
    List<OutboxEntry> entries = List.of(append(), append(), append(), append(), append());
    List<Integer> groupSizes = new ArrayList<>();
    OutboxClaimOutcomeStore recording = new ForwardingOutboxStore(backing) {
      @Override
      public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
        groupSizes.add(transitions.size());
        if (groupSizes.size() == 1) {
          handlers.runAll();
        }
        return super.tryTransitionAll(transitions);
      }
    };
    OutboxDrain drain = OutboxDrain.builder(recording, message -> { })
        .workerId(WorkerId.of("drain-1")).clock(clock).executors(handlers, unusedScheduler).build();

    assertThat(drain.pollOnce()).isEqualTo(5);
    handlers.runAll();

    assertThat(groupSizes).as("the first result alone; the four that finished during its write together")
        .containsExactly(1, 4);
    entries.forEach(entry -> assertThat(stored(entry).status()).isEqualTo(EntryStatus.DELIVERED));
    assertThat(drain.stats().inFlight()).isZero();
  }

  @Test
  void handlersSeeTheClaimGenerationForFencing() {
    append();
    store.claimDue(WorkerId.of("crashed-worker"), 1, LEASE);
    clock.advance(LEASE);
    List<Long> generations = new ArrayList<>();
    OutboxDrain drain = drain(message -> generations.add(message.tokenGeneration())).build();

    drain.pollOnce();
    handlers.runAll();

    assertThat(generations).containsExactly(2L);
  }

  @Test
  void badSettingsAreRejectedByName() {
    assertThatThrownBy(() -> drain(message -> { }).batchSize(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("batchSize");
    assertThatThrownBy(() -> drain(message -> { }).lease(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("lease");
    assertThatThrownBy(() -> OutboxDrain.builder(store, message -> { }).build()).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("workerId");
    assertThatThrownBy(() -> drain(message -> { }).leaseRenewal(Duration.ofSeconds(1), LEASE).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("renewWhenRemaining");
    assertThatThrownBy(() -> RetryPolicy.builder().multiplier(0.5).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("multiplier");
    assertThatThrownBy(() -> RetryPolicy.builder().initialBackoff(Duration.ofMinutes(10)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxBackoff");
  }

  @Test
  void backoffGrowsExponentiallyUpToTheCapWithBoundedJitter() {
    RetryPolicy noJitter = RetryPolicy.builder().maxBackoff(Duration.ofSeconds(30)).jitter(0).build();
    java.util.Random random = new java.util.Random(7);
    assertThat(List.of(1, 2, 3, 4, 5, 6, 7).stream().map(attempt -> noJitter.backoff(attempt, random).toSeconds()))
        .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L);
    RetryPolicy halfJitter = RetryPolicy.builder().initialBackoff(Duration.ofSeconds(8)).maxBackoff(Duration.ofSeconds(30)).build();
    for (int i = 0; i < 100; i++) {
      assertThat(halfJitter.backoff(1, random)).isBetween(Duration.ofSeconds(4), Duration.ofSeconds(8));
    }
  }
}
