package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the handler for every claim the poller hands over, on the handler executor, and turns each
 * handler's end into the transition to record: delivered when it returned, dead-lettered for a
 * permanent failure or when attempts are used up, otherwise failed with a retry time from the
 * {@link RetryPolicy}. Holds every claim from the moment it is claimed until its result is
 * recorded (the in-flight set the poller sizes its claims by and the lease keeper renews).
 *
 * <p>A claim still waiting when the drain stops is released at once (failed, due now) instead of
 * being left to lease expiry. A handler that fails after a forced stop is left to lease expiry: it
 * was interrupted, not failing.
 */
final class HandlerPool {

  private static final Logger LOG = LoggerFactory.getLogger(HandlerPool.class);

  private final DrainSettings settings;
  private final OutboxMessageHandler handler;
  private final Executor executor;
  private final LeaseKeeper leaseKeeper;
  private final ResultRecorder recorder;
  private final Consumer<InFlightEntry> onRelease;
  private final Map<EntryId, InFlightEntry> inFlight = new ConcurrentHashMap<>();
  /**
   * Entries taken on append ({@link #reserve}) whose commit is not reported yet: room kept for them,
   * so a claim does not take it meanwhile. A report that never comes (a caller that promised one and
   * did not) frees its room when the entry's lease has run out, when any drain may take it.
   */
  private final Map<EntryId, Reservation> reserved = new ConcurrentHashMap<>();
  private final AtomicLong reservedPayloadBytes = new AtomicLong();
  private static final Duration HAND_OFF_STREAM_GAP = Duration.ofMillis(2);
  /** When the last entry claimed on append was handed over (the injected clock: tests decide the pace). */
  private volatile Instant lastHandOff = Instant.MIN;
  private volatile boolean handOffsCameClose;
  private final Object emptied = new Object();
  private final AtomicInteger waiting = new AtomicInteger();
  private final AtomicLong finishedHandlers = new AtomicLong();
  private final ClaimAhead claimAhead;

  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong abandoned = new AtomicLong();
  private final AtomicLong released = new AtomicLong();
  private final AtomicLong heldPayloadBytes = new AtomicLong();
  private final DrainFailures failures;

  private volatile boolean stopping;
  private volatile boolean forcedStop;

  HandlerPool(DrainSettings settings, OutboxClaimOutcomeStore store, OutboxMessageHandler handler,
      Executor executor, ScheduledExecutorService scheduler, Consumer<InFlightEntry> onRelease,
      DrainFailures failures) {
    this.settings = settings;
    this.failures = failures;
    this.handler = handler;
    this.executor = executor;
    this.leaseKeeper = new LeaseKeeper(store, settings);
    this.recorder = new ResultRecorder(store, settings.worker(), settings.resultBatchSize(), this::release, failures,
        this::handOffsStream, scheduler);
    this.onRelease = onRelease;
    this.claimAhead = new ClaimAhead(settings);
  }

  /** @return how many more claims the drain may take now: {@link ClaimAhead} sizes the buffer */
  int room() {
    return settings.concurrency() + claimAhead.bufferNow(finishedHandlers.get()) - inFlight.size() - reserved.size();
  }

  /**
   * Keeps room for an entry about to be appended claimed by this drain, if there is room for it
   * (its payload included) and the drain is not stopping.
   *
   * @return whether room was kept; the caller then reports the entry's fate exactly once:
   *     {@link #dispatchReserved} or {@link #unreserve}
   */
  synchronized boolean reserve(OutboxEntry entry) {
    int size = entry.message().payloadSize();
    if (stopping || room() <= 0 || payloadRoom() < size || reserved.containsKey(entry.id())) {
      return false;
    }
    reserved.put(entry.id(), new Reservation(size, settings.clock().instant().plus(settings.lease())));
    reservedPayloadBytes.addAndGet(size);
    return true;
  }

  private record Reservation(int payloadSize, Instant leaseEnd) {}

  /**
   * Frees the room kept for entries whose commit was never reported and whose lease has run out
   * (any drain may take them now).
   *
   * @return whether some room was freed
   */
  boolean dropLapsedReservations() {
    Instant now = settings.clock().instant();
    boolean dropped = false;
    for (Map.Entry<EntryId, Reservation> kept : reserved.entrySet()) {
      if (now.isAfter(kept.getValue().leaseEnd())) {
        dropped |= unreserve(kept.getKey());
      }
    }
    return dropped;
  }

  /**
   * The entry room was kept for will not come.
   *
   * @return whether room had been kept for it
   */
  boolean unreserve(EntryId id) {
    Reservation reservation = reserved.remove(id);
    if (reservation == null) {
      return false;
    }
    reservedPayloadBytes.addAndGet(-reservation.payloadSize());
    return true;
  }

  /**
   * Handles a claim written on append, in the room kept for it; a claim no room was kept for (a
   * repeated report) is ignored, so no entry is handled twice.
   *
   * @return whether it was dispatched
   */
  boolean dispatchReserved(Claim claim) {
    if (!unreserve(claim.entryId())) {
      return false;
    }
    Instant now = settings.clock().instant();
    handOffsCameClose = lastHandOff.plus(HAND_OFF_STREAM_GAP).isAfter(now);
    lastHandOff = now;
    dispatch(claim);
    return true;
  }

  /**
   * Whether entries claimed on append come faster than one per 2 ms and kept coming until a moment
   * ago: results then wait a little for each other ({@link ResultRecorder}).
   */
  private boolean handOffsStream() {
    return handOffsCameClose && lastHandOff.plus(ResultRecorder.STREAM_LINGER).isAfter(settings.clock().instant());
  }

  /**
   * @return how many more payload bytes the drain may claim now: the budget less what it holds
   *     (negative once one claim went over it by its first entry)
   */
  long payloadRoom() {
    return settings.maxHeldPayloadBytes() - heldPayloadBytes.get() - reservedPayloadBytes.get();
  }

  /** @return whether no claim is held: none running, none waiting, none being recorded */
  boolean isEmpty() {
    return inFlight.isEmpty();
  }

  /** @return whether some claim waits for a free handler */
  boolean hasWaiting() {
    return waiting.get() > 0;
  }

  /** @return how many leases were renewed; see {@link LeaseKeeper#renew} */
  int renewLeases() {
    recorder.settle();
    return leaseKeeper.renew(inFlight.values());
  }

  void dispatch(Claim claim) {
    InFlightEntry entry = new InFlightEntry(claim);
    inFlight.put(claim.entryId(), entry);
    heldPayloadBytes.addAndGet(claim.snapshot().message().payloadSize());
    claimed.incrementAndGet();
    waiting.incrementAndGet();
    try {
      executor.execute(() -> run(entry));
    } catch (RejectedExecutionException shutDown) {
      waiting.decrementAndGet();
      abandoned.incrementAndGet();
      release(entry);
    }
  }

  private void run(InFlightEntry entry) {
    waiting.decrementAndGet();
    if (stopping) {
      released.incrementAndGet();
      entry.finish();
      recorder.record(entry, new RetryableFailure(settings.clock().instant(),
          "released unhandled: drain " + settings.worker() + " stopped"));
      return;
    }
    if (!startable(entry) || !entry.start()) {
      entry.finish();
      lost.incrementAndGet();
      release(entry);
      return;
    }
    Throwable failure = null;
    try {
      handler.handle(entry.message);
    } catch (Exception thrown) {
      failure = thrown;
    } catch (Error error) {
      // an Error (out of memory, an assertion) fails this entry like any handler failure; the
      // handler thread and the drain carry on
      failures.failed(DrainFailures.Part.HANDLER, error);
      failure = error;
    } finally {
      entry.finish();
      finishedHandlers.incrementAndGet();
    }
    TransitionRequest result = resultOf(entry, failure);
    if (result == null) {
      release(entry);
    } else {
      recorder.record(entry, result);
    }
  }

  private boolean startable(InFlightEntry entry) {
    try {
      return leaseKeeper.freshBeforeStart(entry);
    } catch (RuntimeException storeFailure) {
      LOG.warn("Outbox drain {} could not renew the lease of waiting entry {}; starting it anyway",
          settings.worker(), entry.claim().entryId(), storeFailure);
      return !entry.message.isClaimLost();
    }
  }

  /** @return the transition to record, or {@code null} when nothing may be recorded */
  private TransitionRequest resultOf(InFlightEntry entry, Throwable failure) {
    if (entry.message.isClaimLost()) {
      lost.incrementAndGet();
      return null;
    }
    if (failure == null) {
      succeeded.incrementAndGet();
      return DeliveryReceipt.none();
    }
    failed.incrementAndGet();
    if (forcedStop) {
      abandoned.incrementAndGet();
      return null;
    }
    Claim claim = entry.claim();
    if (settings.permanent().test(failure)) {
      return new DeadLetter("permanent failure: " + describe(failure));
    }
    if (settings.retryPolicy().isExhausted(claim.attempt())) {
      return new DeadLetter("gave up after " + claim.attempt() + " attempts: " + describe(failure));
    }
    Duration backoff = settings.retryPolicy().backoff(claim.attempt(), ThreadLocalRandom.current());
    return new RetryableFailure(settings.clock().instant().plus(backoff), describe(failure));
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return failure.getClass().getName() + (message == null || message.isBlank() ? "" : ": " + message);
  }

  private void release(InFlightEntry entry) {
    if (inFlight.remove(entry.claim().entryId()) != null) {
      heldPayloadBytes.addAndGet(-entry.claim().snapshot().message().payloadSize());
    }
    synchronized (emptied) {
      emptied.notifyAll();
    }
    onRelease.accept(entry);
  }

  void stopping() {
    stopping = true;
  }

  /** Interrupts every running handler; their failures are left to lease expiry. */
  void forceStop() {
    forcedStop = true;
    abandoned.addAndGet(recorder.abandonUnsettled());
    inFlight.values().forEach(InFlightEntry::interruptHandler);
  }

  boolean awaitEmpty(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (emptied) {
      while (!inFlight.isEmpty()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(emptied, remaining);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  DrainStats stats() {
    return new DrainStats(claimed.get(), succeeded.get(), failed.get(), lost.get(), abandoned.get(),
        released.get(), recorder.settledLater(), inFlight.size(), heldPayloadBytes.get(), failures.claimFailures(),
        failures.claimFailuresInARow(), failures.renewalFailures(), failures.errors(),
        failures.last().map(last -> last.part().name().toLowerCase(Locale.ROOT) + " at " + last.at() + ": "
            + last.description()));
  }
}
