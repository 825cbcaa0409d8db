package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 */
final class ClaimPoller {

  private static final Logger LOG = LoggerFactory.getLogger(ClaimPoller.class);

  private final OutboxClaimOutcomeStore store;
  private final DrainSettings settings;
  private final HandlerPool pool;
  private final ScheduledExecutorService scheduler;
  private final AtomicBoolean parked = new AtomicBoolean();
  /** The turn scheduled after an idle backoff, while it has not started. */
  private final AtomicReference<ScheduledFuture<?>> idleTurn = new AtomicReference<>();
  /** Set when a keyed entry leaves the pool, cleared when a turn starts polling. */
  private final AtomicBoolean keyReleased = new AtomicBoolean();
  private final boolean claimsByKey;
  private final CallGate claims = new CallGate();
  private final DrainFailures failures;
  private volatile boolean stopping;
  private Duration idle;

  ClaimPoller(OutboxClaimOutcomeStore store, DrainSettings settings, HandlerPool pool,
      ScheduledExecutorService scheduler, DrainFailures failures) {
    this.store = store;
    this.failures = failures;
    this.settings = settings;
    this.pool = pool;
    this.scheduler = scheduler;
    this.idle = settings.minIdle();
    this.claimsByKey = store.capabilities().contains(StoreCapability.CLAIM_BY_KEY);
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
      parked.set(true);
      if (!mustWaitForRoom() && parked.compareAndSet(true, false)) {
        execute(this::loop);
      }
      return;
    }
    long delayMillis;
    keyReleased.set(false);
    try {
      Poll poll = poll();
      delayMillis = waitAfter(poll.asked(), poll.claimed()).toMillis();
    } catch (RuntimeException | Error failure) {
      failures.failed(DrainFailures.Part.CLAIM, failure);
      delayMillis = waitAfter(1, 0).toMillis();
    }
    if (delayMillis == 0) {
      execute(this::loop);
    } else {
      schedule(delayMillis);
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
   * successor may be claimable now. When nothing else is held (one key is moving, and a due query
   * would read past all its held-back entries for one claim) it is claimed by key where the store
   * can; otherwise the poller wakes from its idle backoff, and one due query takes the heads of many
   * keys at once.
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
    if (claimsByKey && pool.isEmpty()) {
      execute(() -> handOn(key.get()));
    } else {
      wakeUpForKey();
    }
  }

  /**
   * Claims the key's next entry directly ({@code claimNextOfKey}: one index lookup) instead of a
   * due query, which would read past every held-back entry of the key; when there is none to take
   * now, the poller wakes as for any released key.
   */
  private void handOn(String key) {
    List<Claim> next = List.of();
    if (!stopping && pool.room() > 0) {
      try {
        next = claims.run(() -> dispatch(store.claimNextOfKey(settings.worker(), key, settings.lease())), List::of);
      } catch (RuntimeException | Error failure) {
        failures.failed(DrainFailures.Part.CLAIM, failure);
      }
    }
    if (next.isEmpty()) {
      wakeUpForKey();
    }
  }

  private List<Claim> dispatch(List<Claim> claimed) {
    claimed.forEach(pool::dispatch);
    return claimed;
  }

  private void wakeUpForKey() {
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

  /** No wait after a full batch, {@code minIdle} after a short one, a growing wait after none. */
  private synchronized Duration waitAfter(int asked, int claimed) {
    if (claimed > 0) {
      idle = settings.minIdle();
      return claimed >= asked ? Duration.ZERO : idle;
    }
    Duration current = idle;
    Duration doubled = idle.multipliedBy(2);
    idle = doubled.compareTo(settings.maxIdle()) > 0 ? settings.maxIdle() : doubled;
    return current;
  }

  private void turnAfterIdle() {
    idleTurn.set(null);
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

  private void schedule(long delayMillis) {
    try {
      idleTurn.set(scheduler.schedule(this::turnAfterIdle, delayMillis, TimeUnit.MILLISECONDS));
      // A key released while this turn polled was not seen by its wake-up (no idle turn yet).
      if (keyReleased.get()) {
        wakeFromIdle();
      }
    } catch (RejectedExecutionException shutDown) {
      LOG.debug("Outbox drain {} scheduler is shut down", settings.worker());
    }
  }
}
