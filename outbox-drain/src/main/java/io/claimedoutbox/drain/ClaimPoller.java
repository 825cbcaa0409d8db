package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.CommitNotifications.ClaimOnAppend;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.domain.PayloadBudget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due entries for the handler pool, ahead of need: it keeps up to {@code concurrency} running
 * plus a buffer sized by {@link ClaimAhead} (at most {@code bufferSize}) held, so the handlers never
 * wait for a round trip to the store and the batch size does not depend on the concurrency.
 *
 * <p>It never sleeps while there is work. A batch that came back full is followed by the next at
 * once; when the pool has no room (every handler busy and the buffer full) the poller parks and is
 * woken by the next entry that leaves the pool, which is not idleness. It backs off only when the
 * store returned fewer entries than asked: {@code minIdle} after a short batch, then doubling up
 * to {@code maxIdle} while the store keeps returning nothing. One thing cuts that wait short: an
 * entry with an ordering key leaving the pool, because the next entry of its key may have become
 * claimable — without it, a busy key would move one entry per idle wait.
 *
 * <p><b>Commit wake-ups</b> ({@link #entriesCommitted}) cut the wait short too, but never make
 * a storm: a wake-up only sets a flag and cancels the pending idle turn. Wake-ups that arrive
 * while a claim runs are answered by one claim after it, and no wake-up starts a claim sooner than
 * the gap after the previous claim started: {@code wakeUpGap}, doubled up to 50 ms while this JVM's
 * commits arrive faster than one per {@code wakeUpGap}. So a burst of commits becomes one claim and a high append rate
 * fuller claims, not one per commit. A wake-up whose entry another drain took
 * costs one empty claim and counts as an empty poll.
 *
 * <p><b>Hand-over.</b> A commit in this JVM names its entries; where the store can
 * ({@link StoreCapability#CLAIM_APPENDED}) the next turn claims exactly those with one conditional
 * write ({@code claimAppended}) instead of a due query, and the due query keeps the cadence it
 * would have had without the commits (so retries, expired leases and other processes' entries are
 * still found). An entry another drain took first is simply not claimed.
 *
 * <p><b>Claimed on append.</b> Better still, where the store offers ({@link
 * io.claimedoutbox.port.StoreCapability#CLAIM_ON_APPEND}), an entry appended while the pool has room
 * is written already claimed by this drain, the room kept for it ({@link #takeOnAppend}); the
 * commit's report hands the claim straight to the handlers, on the committing thread, with no
 * store call at all. A rolled-back append gives the room back.
 */
final class ClaimPoller implements CommitNotifications.Listener {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimPoller.class);
  /**
   * How long after a reported commit an empty claim is taken for "ahead of the stream", not for an
   * idle outbox. Under a stream heard from another process the wake-ups come coalesced (one per up
   * to 50 ms) and may be late on a busy machine; a claim that finds nothing between two of them
   * would otherwise double the wait to 100, 200, 400 ms while entries keep arriving. An idle outbox
   * reports no commits, so its back-off grows as before.
   */
  static final Duration STREAM_MEMORY = Duration.ofSeconds(1);

  private static final long NEVER = Long.MIN_VALUE;

  /** A short due query is followed by a wait of at least this many times its own duration. */
  static final int SLOW_QUERY_WAIT_FACTOR = 4;

  /** The widest the wake-up gap grows under a stream of commits. */
  private static final long MAX_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /** More committed entries than this wait for a hand-over: the rest is left to the due query. */
  private static final int HAND_OVER_LIMIT = 4 * StoreArguments.MAX_BATCH;

  private final OutboxClaimOutcomeStore store;
  private final DrainSettings settings;
  private final HandlerPool pool;
  private final ScheduledExecutorService scheduler;
  private final AtomicBoolean parked = new AtomicBoolean();
  /** The turn scheduled after an idle backoff, while it has not started. */
  private final AtomicReference<ScheduledFuture<?>> idleTurn = new AtomicReference<>();
  /** Set when a keyed entry leaves the pool, cleared when a turn starts polling. */
  private final AtomicBoolean keyReleased = new AtomicBoolean();
  private final long wakeUpGapNanos;
  /** The gap now: {@code wakeUpGap}, widened while commits keep arriving faster than turns. */
  private volatile long gapNanos;
  private final AtomicInteger commitsSinceTurn = new AtomicInteger();
  /**
   * Commits of this JVM since the last turn, which alone widen the gap: a notification from another
   * process already comes at most one per its sender's widening interval, and widening for it too
   * held a drain fed by another JVM at 200 commits/s to the widest gap (p50 26 ms instead of ~3 ms).
   */
  private final AtomicInteger localCommitsSinceTurn = new AtomicInteger();
  private volatile long lastPollStart = System.nanoTime();
  /** Entries committed in this JVM, to claim as appended ({@code claimAppended}) at the next turn. */
  private final ConcurrentLinkedQueue<OutboxEntry> handOver = new ConcurrentLinkedQueue<>();
  private final AtomicInteger handOverSize = new AtomicInteger();
  /** Set by a commit whose entries are not known (another process, or more than fit the queue). */
  private final AtomicBoolean unknownCommit = new AtomicBoolean();
  private final boolean claimsAppended;
  /** The terms this drain takes entries on as they are appended, or {@code null} when it takes none. */
  private final ClaimOnAppend onAppend;
  /** When the next due query is owed ({@link System#nanoTime()}), whatever hand-overs happen. */
  private volatile long duePollAt = System.nanoTime();
  /**
   * Whether the next turn runs the due query: the first turn, a turn the back-off scheduled, one
   * after a full batch, one a released key asks for. A turn woken by commits in this JVM only hands
   * their entries over.
   */
  private final AtomicBoolean dueQueryOwed = new AtomicBoolean(true);
  private final boolean claimsByKey;
  private final boolean claimsByKeys;
  private final CallGate claims = new CallGate();
  /** Keys released since the last hand-on, and whether one is scheduled ({@link #handOnKeys}). */
  private final Queue<String> keysToHandOn = new ConcurrentLinkedQueue<>();

  private final AtomicBoolean handOnScheduled = new AtomicBoolean();
  private final DrainFailures failures;
  private volatile boolean stopping;
  private Duration idle;
  /**
   * When a commit was last reported ({@link DrainSettings#clock}), as epoch milliseconds; a claim
   * that finds nothing within {@link #STREAM_MEMORY} of it does not grow the idle wait.
   */
  private volatile long lastCommitHeardMillis = NEVER;

  ClaimPoller(OutboxClaimOutcomeStore store, DrainSettings settings, HandlerPool pool,
      ScheduledExecutorService scheduler, DrainFailures failures, boolean claimOnAppend) {
    this.onAppend = claimOnAppend ? new ClaimOnAppend(settings.worker(), settings.lease()) : null;
    this.store = store;
    this.failures = failures;
    this.settings = settings;
    this.pool = pool;
    this.scheduler = scheduler;
    this.idle = settings.minIdle();
    this.wakeUpGapNanos = settings.wakeUpGap().toNanos();
    this.gapNanos = wakeUpGapNanos;
    this.claimsByKey = store.capabilities().contains(StoreCapability.CLAIM_BY_KEY);
    this.claimsByKeys = store.capabilities().contains(StoreCapability.CLAIM_BY_KEYS);
    this.claimsAppended = store.capabilities().contains(StoreCapability.CLAIM_APPENDED);
  }

  /** Claims as many due entries as the pool has room for, at most a batch, and dispatches them. */
  int pollOnce() {
    return poll().claimed();
  }

  /** How many entries one poll asked for, and how many it got. */
  private record Poll(int asked, int claimed) {}

  private Poll poll() {
    int asked = Math.min(settings.batchSize(), pool.room());
    long payloadRoom = pool.payloadRoom();
    if (stopping || asked <= 0 || payloadRoom <= 0) {
      return new Poll(asked, 0);
    }
    // dispatched inside the gate: a stop waiting for this claim also waits until the pool holds its claims
    List<Claim> claimed = claims.run(() -> dispatch(store.claimDue(settings.worker(), asked, payloadRoom,
        settings.lease())), List::of);
    failures.claimSucceeded();
    // a claim cut short by the payload budget is not a sign of an empty outbox: no idle wait after it
    return new Poll(payloadLimited(claimed, payloadRoom) ? claimed.size() : asked, claimed.size());
  }

  /** Whether the claim stopped at the payload budget rather than at the due entries' end. */
  private static boolean payloadLimited(List<Claim> claimed, long payloadRoom) {
    long bytes = 0;
    for (Claim claim : claimed) {
      bytes += claim.snapshot().message().payloadSize();
    }
    return !claimed.isEmpty() && bytes + OutboxMessage.MAX_PAYLOAD_BYTES > payloadRoom;
  }

  /** One turn of the loop on the scheduler: poll, then schedule the next turn or park. */
  void loop() {
    if (stopping) {
      return;
    }
    if (mustWaitForRoom()) {
      park();
      return;
    }
    long delayNanos;
    keyReleased.set(false);
    long turnStart = System.nanoTime();
    commitsSinceTurn.set(0);
    adaptGap(localCommitsSinceTurn.getAndSet(0), turnStart - lastPollStart);
    lastPollStart = turnStart;
    try {
      if (!keysToHandOn.isEmpty()) {
        // before the due query, which would otherwise take those keys' heads (reading past all their
        // held-back entries) and count them as due work found, keeping its cadence short
        handOnKeys();
      }
      boolean handedOver = handOver();
      if (handedOver && mustWaitForRoom()) {
        // the hand-over filled the pool: the next entry to leave it resumes the loop (and any due
        // query the left-over entries owe)
        park();
        return;
      }
      if (dueQueryOwed.getAndSet(false) | unknownCommit.getAndSet(false)) {
        long pollStart = System.nanoTime();
        Poll poll = poll();
        delayNanos = afterDueQuery(waitAfter(poll.asked(), poll.claimed()), System.nanoTime() - pollStart,
            settings.maxIdle());
        duePollAt = System.nanoTime() + delayNanos;
        if (delayNanos == 0) {
          dueQueryOwed.set(true);
        }
      } else {
        // the commits were claimed as appended: the due query keeps its own cadence
        delayNanos = Math.max(1, duePollAt - System.nanoTime());
      }
    } catch (RuntimeException | Error failure) {
      failures.failed(DrainFailures.Part.CLAIM, failure);
      unknownCommit.set(true);
      delayNanos = waitAfter(1, 0).toNanos();
      duePollAt = System.nanoTime() + delayNanos;
    }
    if (delayNanos == 0) {
      execute(this::loop);
    } else {
      schedule(delayNanos);
    }
  }

  /**
   * The store reported a commit of new entries: those claimed for this drain on append go to the
   * handlers now; for the rest, poll soon (not sooner than {@code wakeUpGap} after the last poll
   * started). Called on the committing or the store's listening thread; only dispatches, sets a
   * flag and reschedules.
   */
  @Override
  public void entriesCommitted(List<OutboxEntry> appended) {
    List<OutboxEntry> pending = handOverClaimedOnAppend(appended);
    if (stopping || (pending.isEmpty() && !appended.isEmpty())) {
      // every entry was claimed on append (by this drain or another of this JVM): nothing to claim
      return;
    }
    if (claimsAppended && !pending.isEmpty() && handOverSize.get() < HAND_OVER_LIMIT) {
      handOverSize.addAndGet(pending.size());
      handOver.addAll(pending);
    } else {
      unknownCommit.set(true);
    }
    if (!pending.isEmpty()) {
      localCommitsSinceTurn.incrementAndGet();
    }
    commitsSinceTurn.incrementAndGet();
    lastCommitHeardMillis = settings.clock().millis();
    wakeSoon();
  }

  @Override
  public Optional<ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
    if (onAppend == null || stopping || !pool.reserve(entry)) {
      return Optional.empty();
    }
    return Optional.of(onAppend);
  }

  @Override
  public void notCommitted(OutboxEntry written) {
    if (isOurs(written) && pool.unreserve(written.id())) {
      resumeIfParked();
    }
  }

  /**
   * Dispatches the entries claimed for this drain on append; returns those still {@code PENDING}.
   * Entries claimed for another drain of this JVM are that drain's, also when this one takes none
   * on append.
   */
  private List<OutboxEntry> handOverClaimedOnAppend(List<OutboxEntry> appended) {
    if (appended.stream().allMatch(entry -> entry.currentClaim().isEmpty())) {
      return appended;
    }
    List<OutboxEntry> pending = new ArrayList<>(appended.size());
    for (OutboxEntry entry : appended) {
      if (entry.currentClaim().isEmpty()) {
        pending.add(entry);
      } else if (onAppend != null && isOurs(entry)) {
        pool.dispatchReserved(Claim.of(entry));
      }
    }
    return pending;
  }

  private boolean isOurs(OutboxEntry entry) {
    return entry.currentClaim().filter(claim -> claim.owner().equals(settings.worker())).isPresent();
  }

  /**
   * Commits of this JVM arriving faster than one per {@code wakeUpGap} (500/s at the default 2 ms)
   * since the last turn: the gap doubles, up to 50 ms, so a turn takes a fuller batch and a high
   * rate costs fewer claims; slower than that, it is back at {@code wakeUpGap}, so a trickle is
   * claimed at once. The test is the rate, not "more than one commit per turn": with the latter, a
   * gap once widened by chance sees more commits per turn and stays wide at rates far below 500/s.
   */
  private void adaptGap(int commits, long sinceLastTurnNanos) {
    long threshold = Math.max(wakeUpGapNanos, 1_000_000L);
    if (commits > 1 && (long) commits * threshold > sinceLastTurnNanos) {
      gapNanos = Math.max(wakeUpGapNanos, Math.min(MAX_GAP_NANOS, Math.max(gapNanos * 2, 1_000_000L)));
    } else {
      gapNanos = wakeUpGapNanos;
    }
  }

  /** Cuts the pending idle wait short, though not to less than {@code wakeUpGap} after the last turn. */
  private void wakeSoon() {
    ScheduledFuture<?> pending = idleTurn.getAndSet(null);
    if (pending != null && pending.cancel(false)) {
      long wait = lastPollStart + gapNanos - System.nanoTime();
      if (wait <= 0) {
        execute(this::loop);
      } else {
        scheduleIdleTurn(wait);
      }
    }
  }

  /**
   * Claims the entries committed in this JVM since the last turn as appended: one conditional
   * write, no due query. What does not fit the pool's room (or its payload room) is left to the due
   * query, which is then owed at once.
   *
   * @return whether there were entries to hand over
   */
  private boolean handOver() {
    if (handOver.isEmpty()) {
      return false;
    }
    int room = Math.min(pool.room(), StoreArguments.MAX_BATCH);
    PayloadBudget budget = PayloadBudget.of(Math.max(1, pool.payloadRoom()));
    List<OutboxEntry> taken = new ArrayList<>();
    OutboxEntry next;
    while ((next = handOver.poll()) != null) {
      handOverSize.decrementAndGet();
      if (taken.size() < room && budget.take(next.message().payloadSize())) {
        taken.add(next);
      } else {
        unknownCommit.set(true);
      }
    }
    if (!taken.isEmpty() && !stopping) {
      claims.run(() -> dispatch(store.claimAppended(settings.worker(), taken, settings.lease())), List::of);
      failures.claimSucceeded();
    }
    return true;
  }

  private void park() {
    parked.set(true);
    resumeIfParked();
  }

  /** Polls again if the poller waits for room and there is room now. */
  void resumeIfParked() {
    if (parked.get() && !mustWaitForRoom() && parked.compareAndSet(true, false)) {
      execute(this::loop);
    }
  }

  /** Room is worth a poll once a whole batch fits, or at once when no claim is waiting. */
  private boolean mustWaitForRoom() {
    int room = pool.room();
    return room <= 0 || (pool.payloadRoom() <= 0 && !pool.isEmpty())
        || (room < settings.batchSize() && pool.hasWaiting());
  }

  /**
   * An entry left the pool: a parked poller polls again; when the entry had an ordering key, its
   * successor may be claimable now. Where the store claims many keys in one call
   * ({@link StoreCapability#CLAIM_BY_KEYS}), or claims by key and the drain holds nothing else, the key
   * joins those to hand on, and one claim on the scheduler hands on every key released meanwhile (a
   * due query would read past all held-back entries of the keys, and take only heads the releases
   * just made claimable); otherwise the poller wakes from its idle backoff, and one due query takes
   * the heads of many keys at once (cheaper than a round trip per key).
   */
  void released(InFlightEntry entry) {
    if (parked.get() && !mustWaitForRoom() && parked.compareAndSet(true, false)) {
      execute(this::loop);
      return;
    }
    Optional<String> key = entry.claim().snapshot().message().orderingKey();
    if (key.isEmpty()) {
      return;
    }
    if (claimsByKeys || (claimsByKey && pool.isEmpty())) {
      keysToHandOn.add(key.get());
      if (handOnScheduled.compareAndSet(false, true)) {
        execute(this::handOnKeys);
      }
    } else {
      wakeUpForKey();
    }
  }

  /**
   * Claims the next entry of each released key ({@code claimNextOfKeys}: an index lookup per key, in
   * a fixed number of round trips), as many keys as the pool has room for. Keys left over for want
   * of room, and a failed claim, wake the poller as for any released key. A key with no entry to take
   * now does not: a due query would find nothing of it either (the same first-unfinished, due
   * entry), and, woken for it, would take the heads of keys whose hand-on is still queued, each of
   * which then comes back empty and wakes it again.
   */
  private void handOnKeys() {
    handOnScheduled.set(false);
    int room = stopping ? 0 : Math.min(pool.room(), StoreArguments.MAX_BATCH);
    Set<String> keys = new LinkedHashSet<>();
    String key;
    while (keys.size() < room && (key = keysToHandOn.poll()) != null) {
      keys.add(key);
    }
    boolean leftOver = false;
    while (keysToHandOn.poll() != null) {
      leftOver = true;
    }
    boolean failed = false;
    if (!keys.isEmpty()) {
      try {
        claims.run(() -> dispatch(store.claimNextOfKeys(settings.worker(), keys, settings.lease())), List::of);
      } catch (RuntimeException | Error failure) {
        failures.failed(DrainFailures.Part.CLAIM, failure);
        failed = true;
      }
    }
    if (leftOver || failed) {
      wakeUpForKey();
    }
  }

  private List<Claim> dispatch(List<Claim> claimed) {
    claimed.forEach(pool::dispatch);
    return claimed;
  }

  private void wakeUpForKey() {
    dueQueryOwed.set(true);
    keyReleased.set(true);
    wakeFromIdle();
  }

  /** Cancelling the pending turn decides the race with it: only one of the two ever runs the loop. */
  private void wakeFromIdle() {
    ScheduledFuture<?> pending = idleTurn.getAndSet(null);
    if (pending != null && pending.cancel(false)) {
      execute(this::loop);
    }
  }

  /**
   * A due query that came back short waits at least {@value #SLOW_QUERY_WAIT_FACTOR} times as long
   * as it ran before the next (never longer than {@code maxIdle}), so the poller spends at most a
   * fifth of its thread in such queries. A due query that must read past many held-back entries
   * (MariaDB walks the keyed due rows: 100–220 ms over 100 keys that hold back 200–2,000 entries each) would
   * otherwise run every {@code minIdle}, and the hand-ons of released keys, which run on the same
   * thread, would wait behind it most of the time. Quick queries (a few milliseconds) keep
   * {@code minIdle}; a full batch is still followed at once; commit and key wake-ups still cut the
   * wait short.
   *
   * @param wait the wait the batch's size asks for ({@link #waitAfter})
   * @param queryNanos how long the due query ran
   * @param maxIdle the longest wait
   * @return the wait before the next due query, in nanoseconds
   */
  static long afterDueQuery(Duration wait, long queryNanos, Duration maxIdle) {
    if (wait.isZero()) {
      return 0;
    }
    long atLeast = Math.min(maxIdle.toNanos(), queryNanos * SLOW_QUERY_WAIT_FACTOR);
    return Math.max(wait.toNanos(), atLeast);
  }

  /**
   * No wait after a full batch, {@code minIdle} after a short one or after none while commits are
   * being reported ({@link #STREAM_MEMORY}), a growing wait after none otherwise.
   */
  private synchronized Duration waitAfter(int asked, int claimed) {
    if (claimed > 0) {
      idle = settings.minIdle();
      return claimed >= asked ? Duration.ZERO : idle;
    }
    if (commitsHeardRecently()) {
      idle = settings.minIdle();
      return idle;
    }
    Duration current = idle;
    Duration doubled = idle.multipliedBy(2);
    idle = doubled.compareTo(settings.maxIdle()) > 0 ? settings.maxIdle() : doubled;
    return current;
  }

  private boolean commitsHeardRecently() {
    long heard = lastCommitHeardMillis;
    return heard != NEVER && settings.clock().millis() - heard < STREAM_MEMORY.toMillis();
  }

  private void turnAfterIdle() {
    idleTurn.set(null);
    if (System.nanoTime() - duePollAt >= 0 || handOver.isEmpty()) {
      dueQueryOwed.set(true);
    }
    loop();
  }

  /**
   * Claims nothing more and waits for a claim call that is running: its claims reach the pool
   * (which releases them) before this returns.
   *
   * @return whether no claim call is running any more
   */
  boolean stop(Duration timeout) {
    stopping = true;
    return claims.closeAndAwait(timeout);
  }

  private void execute(Runnable task) {
    try {
      scheduler.execute(task);
    } catch (RejectedExecutionException shutDown) {
      LOG.debug("Outbox drain {} scheduler is shut down", settings.worker());
    }
  }

  private void schedule(long delayNanos) {
    if (scheduleIdleTurn(delayNanos)) {
      // A key released or a commit reported while this turn polled was not seen by its wake-up
      // (there was no idle turn yet to cut short).
      if (keyReleased.get()) {
        wakeFromIdle();
      } else if (commitsSinceTurn.get() > 0) {
        wakeSoon();
      }
    }
  }

  /** @return whether the turn was scheduled (the scheduler is not shut down) */
  private boolean scheduleIdleTurn(long delayNanos) {
    try {
      idleTurn.set(scheduler.schedule(this::turnAfterIdle, delayNanos, TimeUnit.NANOSECONDS));
      return true;
    } catch (RejectedExecutionException shutDown) {
      LOG.debug("Outbox drain {} scheduler is shut down", settings.worker());
      return false;
    }
  }
}
