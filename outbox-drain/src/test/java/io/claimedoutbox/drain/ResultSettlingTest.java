package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.conformance.rules.StagedRace;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A result whose write failed is settled, not delivered again: the drain reads the entry with the
 * next lease renewal and writes the result once more only when it did not land and is still its own.
 */
@DisplayName("The drain settles a result whose write failed instead of delivering the message again")
class ResultSettlingTest {

  private static final Duration LEASE = Duration.ofSeconds(30);

  /** What the store does to the next result write. */
  private enum Fault {
    /** The write lands and its answer is lost. */
    ANSWER_LOST,
    /** The write never reaches the store; the store says nothing was written. */
    NOTHING_WRITTEN,
    /** The write never lands, but the store cannot tell. */
    UNKNOWN_NOT_LANDED,
    /** A batch write lands whole and its answer is lost: the store says which stamps it sent. */
    BATCH_LANDED_ANSWER_LOST
  }

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final FaultyResults store = new FaultyResults(backing);
  private final ManualExecutor handlers = new ManualExecutor();
  private final ScheduledExecutorService unusedScheduler = Executors.newSingleThreadScheduledExecutor();
  private final AtomicInteger deliveries = new AtomicInteger();

  @AfterEach
  void shutDown() {
    unusedScheduler.shutdownNow();
  }

  /** Fails result writes as scripted; reads can be made to fail too (the store still down). */
  private static final class FaultyResults extends ForwardingOutboxStore {
    final Deque<Fault> transitionFaults = new ArrayDeque<>();
    final List<ClaimTransitionResult> answered = new java.util.ArrayList<>();
    int failingReads;

    FaultyResults(InMemoryOutboxStore delegate) {
      super(delegate);
    }

    @Override
    public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
      if (transitionFaults.peek() == Fault.BATCH_LANDED_ANSWER_LOST) {
        transitionFaults.poll();
        List<WriteStamp> stamps = super.tryTransitionAll(transitions).stream()
            .map(result -> result.entry().lastWriteStamp().orElseThrow()).toList();
        throw TransitionOutcomeUnknownException.ofBatch(transitions, stamps, new OutboxStoreException("answer lost"));
      }
      if (!transitionFaults.isEmpty()) {
        throw new OutboxStoreException("batch refused before anything was written");
      }
      return super.tryTransitionAll(transitions);
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      Fault fault = transitionFaults.poll();
      if (fault == null) {
        ClaimTransitionResult result = super.tryTransition(claim, request);
        answered.add(result);
        return result;
      }
      WriteStamp stamp = switch (fault) {
        case ANSWER_LOST -> super.tryTransition(claim, request).entry().lastWriteStamp().orElseThrow();
        case NOTHING_WRITTEN -> throw new OutboxStoreException("connection refused");
        case UNKNOWN_NOT_LANDED -> WriteStamp.fresh();
        case BATCH_LANDED_ANSWER_LOST -> throw new IllegalStateException("a batch fault, for tryTransitionAll");
      };
      throw new TransitionOutcomeUnknownException(claim, request.kind(), stamp, new OutboxStoreException("answer lost"));
    }

    @Override
    public Optional<OutboxEntry> find(EntryId id) {
      if (failingReads > 0) {
        failingReads--;
        throw new OutboxStoreException("still down");
      }
      return super.find(id);
    }
  }

  private OutboxDrain drain(String worker) {
    return OutboxDrain.builder(store, message -> deliveries.incrementAndGet())
        .workerId(WorkerId.of(worker))
        .lease(LEASE)
        .leaseRenewal(Duration.ofSeconds(5), Duration.ofSeconds(15))
        .clock(clock)
        .executors(handlers, unusedScheduler)
        .build();
  }

  private OutboxEntry deliverWith(OutboxDrain drain, Fault... faults) {
    OutboxEntry entry = store.append(OutboxMessage.of("orders", new byte[] {1}));
    store.transitionFaults.addAll(List.of(faults));
    assertThat(drain.pollOnce()).isEqualTo(1);
    handlers.runAll();
    return entry;
  }

  @Test
  @DisplayName("a delivery whose answer was lost is found by its write stamp: delivered once, recorded once")
  void lostAnswerIsSettledByStamp() {
    OutboxDrain drain = drain("drain-1");
    OutboxEntry entry = deliverWith(drain, Fault.ANSWER_LOST);
    assertThat(drain.stats().inFlight()).as("kept while unsettled").isEqualTo(1);

    drain.renewLeases();

    assertThat(backing.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(drain.stats().resultsSettledLater()).isEqualTo(1);
    assertThat(drain.stats().inFlight()).isZero();
    assertThat(deliveries).hasValue(1);
  }

  @Test
  @DisplayName("a batch whose answer was lost after it landed is settled by its stamps: the drain's own delivery,"
      + " never asked again (which would answer TERMINAL)")
  void landedBatchIsSettledByItsStampsNotAskedAgain() {
    OutboxDrain drain = drain("drain-1");
    OutboxEntry entry = deliverWith(drain, Fault.BATCH_LANDED_ANSWER_LOST);

    assertThat(backing.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(store.answered).as("transitions asked again after the lost answer").isEmpty();
    assertThat(drain.stats().resultsSettledLater()).isEqualTo(1);
    assertThat(drain.stats().inFlight()).isZero();
    assertThat(deliveries).hasValue(1);
  }

  @Test
  @DisplayName("a delivery that was never written is written again with the next renewal, not redelivered")
  void unwrittenResultIsWrittenAgain() {
    OutboxDrain drain = drain("drain-1");
    OutboxEntry entry = deliverWith(drain, Fault.NOTHING_WRITTEN);

    drain.renewLeases();

    assertThat(backing.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(drain.stats().resultsSettledLater()).isEqualTo(1);
    assertThat(deliveries).hasValue(1);
  }

  @Test
  @DisplayName("an unknown outcome that did not land is written again once the store answers")
  void unknownThatDidNotLandIsWrittenAgainWhenTheStoreAnswers() {
    OutboxDrain drain = drain("drain-1");
    OutboxEntry entry = deliverWith(drain, Fault.UNKNOWN_NOT_LANDED);
    store.failingReads = 1;

    drain.renewLeases();
    assertThat(drain.stats().inFlight()).as("the store is still down: kept").isEqualTo(1);
    assertThat(backing.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.CLAIMED);

    drain.renewLeases();
    assertThat(backing.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(drain.stats().resultsSettledLater()).isEqualTo(1);
    assertThat(deliveries).hasValue(1);
  }

  @Test
  @DisplayName("an unsettled result whose entry another worker re-claimed is given up, not written over it")
  void unsettledResultOfAReclaimedEntryIsGivenUp() {
    OutboxDrain first = drain("drain-1");
    OutboxEntry entry = deliverWith(first, Fault.UNKNOWN_NOT_LANDED);
    clock.advance(LEASE.plusSeconds(1));
    Claim reclaimed = store.claimDue(WorkerId.of("drain-2"), 1, LEASE).get(0);

    first.renewLeases();

    OutboxEntry now = backing.find(entry.id()).orElseThrow();
    assertThat(now.status()).isEqualTo(EntryStatus.CLAIMED);
    assertThat(now.currentClaim().orElseThrow().owner()).isEqualTo(reclaimed.owner());
    assertThat(first.stats().inFlight()).isZero();
  }

  @Test
  @DisplayName("a delivery that loses to the drain's own lease renewal (a store that evaluates first) is written again")
  void deliveryLosingToOwnRenewalIsWrittenAgain() {
    StagedRace race = new StagedRace();
    InMemoryOutboxStore evaluatesFirst = new InMemoryOutboxStore(clock, race);
    OutboxDrain drain = OutboxDrain.builder(evaluatesFirst, message -> deliveries.incrementAndGet())
        .workerId(WorkerId.of("drain-1")).lease(LEASE).clock(clock).executors(handlers, unusedScheduler).build();
    OutboxEntry entry = evaluatesFirst.append(OutboxMessage.of("orders", new byte[] {1}));
    race.arm(claim -> evaluatesFirst.trySaveClaim(claim, LeaseRenewal.of(LEASE)));

    drain.pollOnce();
    handlers.runAll();

    assertThat(race.timesFired()).isEqualTo(1);
    assertThat(evaluatesFirst.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(deliveries).hasValue(1);
    assertThat(drain.stats().inFlight()).isZero();
  }
}
