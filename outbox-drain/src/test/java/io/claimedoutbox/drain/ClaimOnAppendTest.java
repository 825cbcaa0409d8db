package io.claimedoutbox.drain;

import io.claimedoutbox.conformance.ManualScheduler;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.spi.NewEntries;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.port.spi.CommitSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Entries taken on append: the drain keeps room for an entry offered before its append is written,
 * the commit's report hands it the claim written with the entry, and a rollback gives the room back.
 * The poll loop and the handlers run step by step on the test's thread.
 */
@DisplayName("An entry claimed on append is handled at its commit, with no claim; a rollback frees its room")
class ClaimOnAppendTest {

  /** Long, so that no due query falls due on its own while a test runs. */
  private static final Duration MIN_IDLE = Duration.ofSeconds(10);
  private static final WorkerId WORKER = WorkerId.of("drain-1");

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final AtomicInteger claimCalls = new AtomicInteger();
  private final AtomicInteger resultWrites = new AtomicInteger();
  private final ManualExecutor handlers = new ManualExecutor();
  private final ManualScheduler scheduler = new ManualScheduler();
  private final List<String> handled = Collections.synchronizedList(new ArrayList<>());

  /** The backing store, counting every claim call the drain makes. */
  private OutboxDrain.Builder drainOn(CommitNotifications notifications) {
    ForwardingOutboxStore store = new ForwardingOutboxStore(backing) {
      @Override
      public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
        claimCalls.incrementAndGet();
        return super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
      }

      @Override
      public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
        claimCalls.incrementAndGet();
        return super.claimAppended(worker, appended, lease);
      }

      @Override
      public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
        resultWrites.incrementAndGet();
        return super.tryTransitionAll(transitions);
      }

      @Override
      public CommitNotifications commitNotifications() {
        return notifications;
      }
    };
    return OutboxDrain.builder(store, message -> handled.add(message.entry().id().value()))
        .workerId(WORKER).clock(clock).concurrency(2)
        .idleBackoff(MIN_IDLE, MIN_IDLE.multipliedBy(4))
        .wakeUpGap(Duration.ZERO)
        .executors(handlers, scheduler);
  }

  private OutboxDrain idle(OutboxDrain.Builder builder) {
    OutboxDrain drain = builder.build();
    drain.start();
    scheduler.runQueued();
    assertThat(claimCalls).as("the first poll, on an empty outbox").hasValue(1);
    return drain;
  }

  private static List<OutboxEntry> fresh(int count, Instant now) {
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      messages.add(OutboxMessage.of("t", new byte[] {(byte) i}));
    }
    return NewEntries.of(messages, now);
  }

  /** An append of {@code count} entries about to be written, offered to the drains now. */
  private List<OutboxEntry> offer(CommitSignal signal, int count) {
    Instant now = clock.instant();
    return signal.claimOnAppend(fresh(count, now), now);
  }

  private static long claimedBy(List<OutboxEntry> written, WorkerId worker) {
    return written.stream().filter(entry -> entry.currentClaim().filter(c -> c.owner().equals(worker)).isPresent())
        .count();
  }

  @Test
  void anEntryAppendedWhileTheDrainHasRoomIsStoredClaimedAndHandledWithoutAClaimCall() {
    OutboxDrain drain = idle(drainOn(backing.commitNotifications()));

    OutboxEntry appended = backing.append(OutboxMessage.of("t", new byte[] {1}));

    assertThat(appended.status()).as("the entry as written").isEqualTo(EntryStatus.CLAIMED);
    assertThat(appended.currentClaim().orElseThrow().owner()).isEqualTo(WORKER);
    assertThat(handlers.queued()).as("handed to the handlers by the commit's report").isEqualTo(1);
    handlers.runAll();
    scheduler.runQueued();
    handlers.runAll();
    assertThat(handled).containsExactly(appended.id().value());
    assertThat(claimCalls).as("no claim call for an entry claimed on append").hasValue(1);
    assertThat(backing.find(appended.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void resultsOfAStreamOfHandOffsAreWrittenTogetherAfterAShortWait() {
    OutboxDrain drain = idle(drainOn(backing.commitNotifications()).concurrency(10));
    List<OutboxMessage> batch = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      batch.add(OutboxMessage.of("t", new byte[] {(byte) i}));
    }

    List<OutboxEntry> appended = backing.appendAll(batch);
    handlers.runAll();
    int writtenAtOnce = resultWrites.get();
    scheduler.runDelayed();

    assertThat(appended).allSatisfy(entry -> assertThat(entry.status()).isEqualTo(EntryStatus.CLAIMED));
    assertThat(handled).hasSize(10);
    assertThat(writtenAtOnce).as("result writes before the linger ran out (10 hand-offs back to back)")
        .isLessThanOrEqualTo(2);
    assertThat(resultWrites.get()).as("result writes for 10 results").isLessThanOrEqualTo(3);
    assertThat(appended).allSatisfy(entry -> assertThat(backing.find(entry.id()).orElseThrow().status())
        .isEqualTo(EntryStatus.DELIVERED));
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void theDrainTakesNoMoreThanItHasRoomForAndARollbackGivesTheRoomBack() {
    CommitSignal signal = CommitSignal.local();
    OutboxDrain drain = idle(drainOn(signal));

    List<OutboxEntry> first = offer(signal, 50);
    long room = claimedBy(first, WORKER);
    assertThat(room).as("entries taken of 50 offered").isPositive().isLessThan(50);
    assertThat(offer(signal, 5)).as("offered while full")
        .allSatisfy(entry -> assertThat(entry.status()).isEqualTo(EntryStatus.PENDING));

    signal.notCommitted(first);

    List<OutboxEntry> again = offer(signal, 50);
    assertThat(claimedBy(again, WORKER)).as("entries taken after the rollback").isEqualTo(room);
    assertThat(handlers.queued()).as("nothing handled for a rolled-back append").isZero();
    assertThat(claimCalls).as("no claim while appends are undecided").hasValue(1);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void roomKeptForACommitNeverReportedIsFreedOnceItsLeaseHasRunOut() {
    CommitSignal signal = CommitSignal.local();
    OutboxDrain drain = idle(drainOn(signal));
    long room = claimedBy(offer(signal, 50), WORKER);

    clock.advance(Duration.ofSeconds(29));
    drain.renewLeases();
    assertThat(claimedBy(offer(signal, 5), WORKER))
        .as("taken within the lease of the unreported ones").isZero();
    clock.advance(Duration.ofSeconds(2));
    drain.renewLeases();

    assertThat(claimedBy(offer(signal, 50), WORKER))
        .as("taken once their lease (30 s) ran out").isEqualTo(room);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aRepeatedReportHandsTheEntryOverOnce() {
    CommitSignal signal = CommitSignal.local();
    OutboxDrain drain = idle(drainOn(signal));
    List<OutboxEntry> written = offer(signal, 1);

    signal.committed(written);
    signal.committed(written);

    assertThat(handlers.queued()).as("handler runs for one entry reported twice").isEqualTo(1);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void anEntryClaimedOnAppendForAnotherDrainOfTheJvmIsLeftToIt() {
    CommitSignal signal = CommitSignal.local();
    OutboxDrain drain = idle(drainOn(signal).claimOnAppend(false));
    OutboxEntry othersClaim = fresh(1, clock.instant()).get(0)
        .claimedBy(WorkerId.of("drain-2"), clock.instant(), Duration.ofSeconds(30), WriteStamp.fresh());

    signal.committed(List.of(othersClaim));
    scheduler.runQueued();

    assertThat(handlers.queued()).as("handlers started for another drain's claim").isZero();
    assertThat(claimCalls).as("no claim for another drain's claim").hasValue(1);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aStoppedDrainTakesNothing() {
    CommitSignal signal = CommitSignal.local();
    OutboxDrain drain = idle(drainOn(signal));
    drain.stop(Duration.ofSeconds(1));

    assertThat(offer(signal, 3))
        .allSatisfy(entry -> assertThat(entry.status()).isEqualTo(EntryStatus.PENDING));
  }

  @Test
  void withClaimOnAppendOffTheCommittedEntryIsClaimedAsAppended() {
    OutboxDrain drain = idle(drainOn(backing.commitNotifications()).claimOnAppend(false));

    OutboxEntry appended = backing.append(OutboxMessage.of("t", new byte[] {1}));
    scheduler.runQueued();
    handlers.runAll();

    assertThat(appended.status()).isEqualTo(EntryStatus.PENDING);
    assertThat(handled).containsExactly(appended.id().value());
    assertThat(claimCalls).as("the first poll and one claimAppended").hasValue(2);
    drain.stop(Duration.ofSeconds(1));
  }
}
