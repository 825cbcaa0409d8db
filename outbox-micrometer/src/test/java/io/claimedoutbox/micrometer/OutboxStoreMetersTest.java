package io.claimedoutbox.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.rules.StagedRace;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.StorageBackedOutboxStore;
import com.example.outbox.mapstore.ConcurrentMapEntryStorage;
import io.claimedoutbox.conformance.FaultProxy.Fault;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

@DisplayName("The store's meter listener counts every attempt by outcome, times each call once and warns once per non-applied attempt")
class OutboxStoreMetersTest {

  private static final WorkerId ALICE = WorkerId.of("alice");
  private static final WorkerId BOB = WorkerId.of("bob");
  private static final Duration LEASE = Duration.ofSeconds(30);

  private MutableClock clock;
  private StagedRace race;
  private InMemoryOutboxStore backing;
  private SimpleMeterRegistry registry;
  private CapturingLogger log;
  private InMemoryOutboxStore store;

  @BeforeEach
  void observeAFreshStore() {
    clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    race = new StagedRace();
    backing = new InMemoryOutboxStore(clock, race);
    registry = new SimpleMeterRegistry();
    log = new CapturingLogger();
    store = backing;
    store.listen(OutboxStoreMeters.builder(registry).log(log).build());
  }

  private Claim claimOne(WorkerId worker) {
    return store.claimDue(worker, 1, LEASE).get(0);
  }

  private double attempts(String outcome, String durableStatus, String transition) {
    Counter counter = registry.find(OutboxMetrics.TRANSITION_ATTEMPTS)
        .tags(OutboxMetrics.OUTCOME, outcome, OutboxMetrics.DURABLE_STATUS, durableStatus,
            OutboxMetrics.TRANSITION, transition)
        .counter();
    return counter == null ? 0 : counter.count();
  }

  private double allAttempts() {
    return registry.find(OutboxMetrics.TRANSITION_ATTEMPTS).counters().stream().mapToDouble(Counter::count).sum();
  }

  @Test
  void appliedIsCountedAndLoggedOnlyAtDebug() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    ClaimTransitionResult result = store.tryMarkClaimDelivered(claimOne(ALICE), DeliveryReceipt.none());

    assertThat(result.outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
    assertThat(attempts("applied", "delivered", "delivered")).isEqualTo(1);
    assertThat(allAttempts()).isEqualTo(1);
    assertThat(log.at(Level.WARN)).isEmpty();
    assertThat(log.at(Level.DEBUG)).hasSize(1);
    assertThat(registry.find(OutboxMetrics.TRANSITION_DURATION)
        .tags(OutboxMetrics.TRANSITION, "delivered", OutboxMetrics.OUTCOME, "applied").timer().count()).isEqualTo(1);
  }

  @Test
  void staleClaimIsCountedAndWarnedOnce() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim stale = claimOne(ALICE);
    clock.advance(LEASE);
    claimOne(BOB);

    store.tryMarkClaimFailed(stale, new RetryableFailure(clock.instant(), "e"));

    assertThat(attempts("stale_claim", "claimed", "failed")).isEqualTo(1);
    assertThat(log.at(Level.WARN)).singleElement().satisfies(line -> assertThat(line)
        .contains("worker=alice", "entry=" + stale.entryId(), "transition=failed", "outcome=stale_claim",
            "durable_status=claimed"));
  }

  @Test
  void terminalIsCountedAndWarnedOnce() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = claimOne(ALICE);
    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    store.tryMarkClaimDeadLettered(claim, new DeadLetter("late"));

    assertThat(attempts("terminal", "delivered", "dead_lettered")).isEqualTo(1);
    assertThat(log.at(Level.WARN)).singleElement().satisfies(line -> assertThat(line)
        .contains("outcome=terminal", "durable_status=delivered", "transition=dead_lettered"));
  }

  @Test
  void concurrencyLostIsCountedAgainstTheWinnersStatus() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = claimOne(ALICE);
    race.arm(evaluated -> backing.tryMarkClaimDelivered(evaluated, DeliveryReceipt.of("winner")));

    ClaimTransitionResult result = store.trySaveClaim(claim, LeaseRenewal.of(LEASE));

    assertThat(result.outcome()).isEqualTo(ClaimTransitionOutcome.CONCURRENCY_LOST);
    assertThat(attempts("concurrency_lost", "delivered", "save")).isEqualTo(1);
    assertThat(log.at(Level.WARN)).singleElement().satisfies(line -> assertThat(line)
        .contains("outcome=concurrency_lost", "durable_status=delivered", "transition=save"));
  }

  @Test
  void missingIsCountedWithTheMissingStatus() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = claimOne(ALICE);
    store.delete(claim.entryId());

    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(attempts("missing", "missing", "delivered")).isEqualTo(1);
    assertThat(log.at(Level.WARN)).singleElement().satisfies(line -> assertThat(line)
        .contains("outcome=missing", "durable_status=missing"));
  }

  @Test
  @DisplayName("a batch is counted and logged element by element, and timed once")
  void aBatchIsCountedAndLoggedElementByElementAndTimedOnce() {
    OutboxClaimOutcomeStore kernelStore = StorageBackedOutboxStore.over(new ConcurrentMapEntryStorage(
        new ConcurrentHashMap<>()), clock);
    kernelStore.listen(OutboxStoreMeters.builder(registry).log(log).build());
    kernelStore.append(OutboxMessage.of("t", new byte[] {1}));
    Claim stale = kernelStore.claimDue(ALICE, 1, LEASE).get(0);
    clock.advance(LEASE);
    kernelStore.claimDue(BOB, 1, LEASE);
    kernelStore.append(OutboxMessage.of("t", new byte[] {2}));
    Claim applied = kernelStore.claimDue(ALICE, 1, LEASE).get(0);

    List<ClaimTransitionResult> results = kernelStore.tryTransitionAll(List.of(
        new ClaimTransition(applied, DeliveryReceipt.none()),
        new ClaimTransition(stale, DeliveryReceipt.none())));

    assertThat(results).extracting(ClaimTransitionResult::outcome)
        .containsExactly(ClaimTransitionOutcome.APPLIED, ClaimTransitionOutcome.STALE_CLAIM);
    assertThat(attempts("applied", "delivered", "delivered")).isEqualTo(1);
    assertThat(attempts("stale_claim", "claimed", "delivered")).isEqualTo(1);
    assertThat(allAttempts()).isEqualTo(2);
    assertThat(log.at(Level.WARN)).singleElement().satisfies(line -> assertThat(line)
        .contains("worker=alice", "entry=" + stale.entryId(), "outcome=stale_claim"));
    assertThat(registry.find(OutboxMetrics.TRANSITION_DURATION).timers()).singleElement()
        .satisfies(timer -> {
          assertThat(timer.count()).as("one record for the one call").isEqualTo(1);
          assertThat(timer.getId().getTag(OutboxMetrics.OUTCOME)).isEqualTo("not_applied");
          assertThat(timer.getId().getTag(OutboxMetrics.TRANSITION)).isEqualTo("delivered");
        });
    assertThat(registry.find(OutboxMetrics.CLAIMED_ENTRIES).tag(OutboxMetrics.CALL, "claim_due").counter().count())
        .isEqualTo(3);
    assertThat(registry.find(OutboxMetrics.CLAIM_DURATION).tags(OutboxMetrics.CALL, "claim_due",
        OutboxMetrics.OUTCOME, "ok").timer().count()).isEqualTo(3);
    assertThat(registry.find(OutboxMetrics.APPENDED_ENTRIES).counter().count()).isEqualTo(2);
  }

  @Test
  @DisplayName("compatibility methods go through the same path: a losing worker is counted as not applied")
  void compatibilityMethodsAreObservedToo() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim loser = claimOne(ALICE);
    clock.advance(LEASE);
    Claim winner = claimOne(BOB);
    OutboxEntry winnersWrite = store.markClaimDelivered(winner, DeliveryReceipt.none());

    OutboxEntry returned = store.markClaimDelivered(loser, DeliveryReceipt.none());

    assertThat(returned).as("the compatibility method returns the durable winner").isEqualTo(winnersWrite);
    assertThat(attempts("applied", "delivered", "delivered")).isEqualTo(1);
    assertThat(attempts("terminal", "delivered", "delivered")).isEqualTo(1);
    assertThat(log.at(Level.WARN)).singleElement().satisfies(line -> assertThat(line).contains("worker=alice"));
  }

  @Test
  void infrastructureFailuresAreCountedAsErrorsAndRethrown() {
    InMemoryOutboxStore failing = new InMemoryOutboxStore(clock, race);
    failing.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = failing.claimDue(ALICE, 1, LEASE).get(0);
    failing.listen(OutboxStoreMeters.builder(registry).log(log).build());
    failing.routeThrough(() -> Optional.of(Fault.CUT_BEFORE_REQUEST));

    assertThatThrownBy(() -> failing.tryMarkClaimDelivered(claim, DeliveryReceipt.none()))
        .isInstanceOf(OutboxStoreException.class);
    assertThat(registry.find(OutboxMetrics.TRANSITION_ERRORS)
        .tags(OutboxMetrics.TRANSITION, "delivered", OutboxMetrics.EXCEPTION, "OutboxStoreException")
        .counter().count()).isEqualTo(1);
    assertThat(allAttempts()).isZero();
  }

  @Test
  void badInputIsRejectedWithoutCountingAnything() {
    assertThatThrownBy(() -> store.tryTransition(null, DeliveryReceipt.none()))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("claim");
    assertThat(registry.getMeters()).as("no meter: an argument the store rejects reaches no listener").isEmpty();
  }
}
