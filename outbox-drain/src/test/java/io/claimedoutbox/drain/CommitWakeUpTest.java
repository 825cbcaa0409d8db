package io.claimedoutbox.drain;

import io.claimedoutbox.conformance.ManualScheduler;
import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.port.spi.CommitSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Commit wake-ups, with the poll loop run step by step on the test's thread. The test plays the
 * store's commit signal itself, so it decides what each notification carries: the entries (a
 * commit in this JVM, handed over with {@code claimAppended}) or nothing (a commit heard from
 * another process, answered with a due query).
 */
@DisplayName("The drain claims at once after a commit: one claim per burst, the due query as the safety net")
class CommitWakeUpTest {

  /** Long, so that no due query falls due on its own while a test runs, however slow the machine. */
  private static final Duration MIN_IDLE = Duration.ofSeconds(10);

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final CommitSignal signal = CommitSignal.local();
  private final AtomicInteger dueQueries = new AtomicInteger();
  private final AtomicInteger handOvers = new AtomicInteger();
  private final List<Runnable> duringNextClaim = new ArrayList<>();
  private final ForwardingOutboxStore store = new ForwardingOutboxStore(backing) {
    @Override
    public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
      dueQueries.incrementAndGet();
      return super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
    }

    @Override
    public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
      handOvers.incrementAndGet();
      List<Runnable> staged = List.copyOf(duringNextClaim);
      duringNextClaim.clear();
      List<Claim> claimed = super.claimAppended(worker, appended, lease);
      // what commits while the claim runs is not in its result
      staged.forEach(Runnable::run);
      return claimed;
    }

    @Override
    public CommitNotifications commitNotifications() {
      return signal;
    }
  };
  private final ManualExecutor handlers = new ManualExecutor();
  private final ManualScheduler scheduler = new ManualScheduler();
  private final List<String> handled = new ArrayList<>();

  private OutboxDrain.Builder drain() {
    return OutboxDrain.builder(store, message -> handled.add(message.entry().id().value()))
        .workerId(WorkerId.of("drain-1")).clock(clock)
        .idleBackoff(MIN_IDLE, MIN_IDLE.multipliedBy(4))
        .wakeUpGap(Duration.ZERO)
        .executors(handlers, scheduler);
  }

  /** A commit in this JVM: appended, then the signal names the entry. */
  private OutboxEntry commit() {
    OutboxEntry entry = backing.append(OutboxMessage.of("t", new byte[] {1}));
    signal.committed(List.of(entry));
    return entry;
  }

  /** Runs what the poll loop and the handlers queued, and what that queues, until nothing is left. */
  private void settle() {
    do {
      scheduler.runQueued();
      handlers.runAll();
    } while (scheduler.hasQueued() || handlers.queued() > 0);
  }

  /** Starts the drain and lets its first poll find the outbox empty: it is waiting idle then. */
  private OutboxDrain idleDrain(OutboxDrain.Builder builder) {
    OutboxDrain drain = builder.build();
    drain.start();
    scheduler.runQueued();
    assertThat(dueQueries).hasValue(1);
    assertThat(scheduler.pendingDelays()).containsExactly(MIN_IDLE);
    return drain;
  }

  @Test
  void aCommitEndsTheIdleWaitAndItsEntryIsClaimedAsAppendedWithoutADueQuery() {
    OutboxDrain drain = idleDrain(drain());

    OutboxEntry entry = commit();
    settle();

    assertThat(handOvers).hasValue(1);
    assertThat(dueQueries).as("no due query for a hand-over").hasValue(1);
    assertThat(handled).containsExactly(entry.id().value());
    assertThat(store.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(scheduler.pendingDelays()).as("the due query keeps its cadence")
        .allSatisfy(delay -> assertThat(delay).isPositive().isLessThanOrEqualTo(MIN_IDLE));
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aBurstOfCommitsIsTakenByFewClaims() {
    OutboxDrain drain = idleDrain(drain());

    for (int i = 0; i < 20; i++) {
      commit();
    }
    settle();

    assertThat(handled).hasSize(20);
    // one claim per commit would be 20; each claim here takes what the pool has room for
    assertThat(handOvers.get() + dueQueries.get() - 1).as("claims for a burst of 20 commits").isLessThanOrEqualTo(5);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aCommitDuringAClaimIsTakenByTheNextTurnWithoutTheIdleWait() {
    OutboxDrain drain = idleDrain(drain());
    List<OutboxEntry> late = new ArrayList<>();
    duringNextClaim.add(() -> late.add(commit()));

    OutboxEntry first = commit();
    settle();

    assertThat(handOvers).hasValue(2);
    assertThat(handled).containsExactly(first.id().value(), late.get(0).id().value());
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aCommitFromAnotherProcessIsAnsweredWithADueQuery() {
    OutboxDrain drain = idleDrain(drain());
    OutboxEntry elsewhere = backing.append(OutboxMessage.of("t", new byte[] {1}));

    signal.committed();
    settle();

    assertThat(dueQueries).hasValue(2);
    assertThat(handOvers).hasValue(0);
    assertThat(handled).containsExactly(elsewhere.id().value());
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aClaimThatFindsNothingWhileCommitsAreReportedDoesNotGrowTheIdleWait() {
    OutboxDrain drain = idleDrain(drain());
    // another process committed an entry another drain took first: the claim it wakes finds nothing
    backing.append(OutboxMessage.of("t", new byte[] {1}));
    backing.claimDue(WorkerId.of("other"), 10, Duration.ofSeconds(30));

    signal.committed();
    settle();

    assertThat(dueQueries).hasValue(2);
    assertThat(scheduler.pendingDelays()).as("commits are being reported: the stream goes on, the outbox is not idle")
        .containsExactly(MIN_IDLE);

    clock.advance(ClaimPoller.STREAM_MEMORY);
    scheduler.runDelayed();
    scheduler.runDelayed();
    assertThat(dueQueries).hasValue(4);
    assertThat(scheduler.pendingDelays()).as("no commit reported for a while: the back-off grows again")
        .containsExactly(MIN_IDLE.multipliedBy(2));
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void noClaimStartsSoonerThanTheWakeUpGapAfterTheLastOne() {
    Duration gap = Duration.ofMillis(900);
    OutboxDrain drain = idleDrain(drain().wakeUpGap(gap));

    commit();
    scheduler.runQueued();

    assertThat(handOvers).as("the commit came within the gap: no claim yet").hasValue(0);
    assertThat(scheduler.pendingDelays()).singleElement()
        .satisfies(delay -> assertThat(delay).isPositive().isLessThanOrEqualTo(gap));
    for (int i = 0; i < 5; i++) {
      commit();
    }
    scheduler.runDelayed();
    settle();
    assertThat(handled).hasSize(6);
    assertThat(handOvers).as("one claim after the gap for all six commits").hasValue(1);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aWakeUpForAnEntryAnotherDrainTookCostsOneEmptyClaimAndNoError() {
    OutboxDrain drain = idleDrain(drain());
    OutboxEntry entry = backing.append(OutboxMessage.of("t", new byte[] {1}));
    backing.claimDue(WorkerId.of("other"), 10, Duration.ofSeconds(30));

    signal.committed(List.of(entry));
    settle();

    assertThat(handOvers).hasValue(1);
    assertThat(handled).isEmpty();
    assertThat(drain.stats().claimed()).isZero();
    assertThat(drain.stats().errors()).isZero();
    assertThat(drain.stats().claimFailures()).isZero();
    assertThat(store.find(entry.id()).orElseThrow().currentClaim().map(CurrentClaim::owner)).contains(WorkerId.of("other"));
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void withWakeUpsOffOnlyThePollFindsTheEntry() {
    OutboxDrain drain = idleDrain(drain().wakeOnCommit(false));

    commit();
    scheduler.runQueued();
    assertThat(dueQueries).hasValue(1);
    assertThat(handOvers).hasValue(0);

    scheduler.runDelayed();
    settle();
    assertThat(dueQueries).hasValue(2);
    assertThat(handled).hasSize(1);
    drain.stop(Duration.ofSeconds(1));
  }

  @Test
  void aStoppedDrainHearsNothing() {
    OutboxDrain drain = idleDrain(drain());
    drain.stop(Duration.ofSeconds(1));

    commit();
    scheduler.runQueued();

    assertThat(dueQueries).hasValue(1);
    assertThat(handOvers).hasValue(0);
    assertThat(signal.hasSubscribers()).isFalse();
  }
}
