package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hosted drain: a long-running component that claims batches for one worker id, hands each
 * entry to an {@link OutboxMessageHandler}, and records the result through the store's
 * compatibility methods — delivered, failed (retry later with exponential backoff and jitter) or
 * dead-lettered (permanent failure, or attempts used up). Give it an {@link ObservedOutboxStore}
 * and a losing worker's transitions show up as non-applied warnings and metrics, never as its own
 * success.
 *
 * <ul>
 *   <li><b>Bounded concurrency</b>: at most {@code concurrency} handlers run at once; a poll claims
 *       only as many entries as there are free handlers.
 *   <li><b>Back-off</b>: an empty poll doubles the wait before the next one, from {@code minIdle}
 *       to {@code maxIdle}; a poll that found work polls again at once.
 *   <li><b>Lease renewal</b>: every {@code renewalInterval}, each claim whose lease ends within
 *       {@code renewWhenRemaining} is renewed with {@code trySaveClaim}; a renewal that is not
 *       applied means the claim is lost: the handler is interrupted, told through
 *       {@link ClaimedMessage#isClaimLost()}, and its result is never recorded.
 *   <li><b>Poison entries</b> never block others: each entry is handled and recorded on its own.
 *   <li><b>Shutdown</b> ({@link #stop}): claim nothing more, let in-flight handlers finish within
 *       the timeout (renewing their leases meanwhile), then interrupt the rest and leave their
 *       entries to lease expiry. Nothing is lost, and nothing is marked delivered that a handler did
 *       not deliver.
 * </ul>
 *
 * <p>{@link #pollOnce()} and {@link #renewLeases()} are public so a host (or a test) can drive the
 * drain with its own scheduling; {@link #start()} schedules them itself. Time comes from the
 * injected {@link Clock}. Thread-safe.
 */
public final class OutboxDrain implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OutboxDrain.class);
  private static final AtomicInteger DRAIN_NUMBER = new AtomicInteger();

  private final OutboxClaimOutcomeStore store;
  private final OutboxMessageHandler handler;
  private final WorkerId worker;
  private final int batchSize;
  private final Duration lease;
  private final int concurrency;
  private final RetryPolicy retryPolicy;
  private final Duration minIdle;
  private final Duration maxIdle;
  private final Duration renewalInterval;
  private final Duration renewWhenRemaining;
  private final Duration shutdownTimeout;
  private final Clock clock;
  private final Predicate<Throwable> permanent;
  private final ExecutorService handlers;
  private final ScheduledExecutorService scheduler;
  private final boolean ownsExecutors;

  private final Map<EntryId, InFlightEntry> inFlight = new ConcurrentHashMap<>();
  private final Object inFlightChanged = new Object();
  private final AtomicLong claimed = new AtomicLong();
  private final AtomicLong succeeded = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong abandoned = new AtomicLong();

  private volatile boolean stopping;
  private volatile boolean forcedStop;
  private boolean started;
  private ScheduledFuture<?> renewalTask;
  private Duration idle;

  private OutboxDrain(Builder b) {
    this.store = b.store;
    this.handler = b.handler;
    this.worker = Arguments.requireNonNull(b.worker, "workerId");
    this.batchSize = b.batchSize;
    this.lease = b.lease;
    this.concurrency = b.concurrency;
    this.retryPolicy = b.retryPolicy;
    this.minIdle = b.minIdle;
    this.maxIdle = b.maxIdle;
    this.renewalInterval = b.renewalInterval != null ? b.renewalInterval : lease.dividedBy(3);
    this.renewWhenRemaining = b.renewWhenRemaining != null ? b.renewWhenRemaining : lease.dividedBy(2);
    this.shutdownTimeout = b.shutdownTimeout;
    this.clock = b.clock;
    this.permanent = b.permanent;
    this.ownsExecutors = b.handlers == null;
    int number = DRAIN_NUMBER.incrementAndGet();
    this.handlers = b.handlers != null ? b.handlers : Executors.newFixedThreadPool(concurrency,
        runnable -> daemon(runnable, "outbox-drain-" + number + "-handler"));
    this.scheduler = b.scheduler != null ? b.scheduler : Executors.newSingleThreadScheduledExecutor(
        runnable -> daemon(runnable, "outbox-drain-" + number + "-scheduler"));
    this.idle = minIdle;
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  /**
   * Starts building a drain.
   *
   * @param store where entries are claimed and recorded; wrap it in {@link ObservedOutboxStore}
   * @param handler what emits each message
   * @return a builder; {@link Builder#workerId} is required
   */
  public static Builder builder(OutboxClaimOutcomeStore store, OutboxMessageHandler handler) {
    return new Builder(Arguments.requireNonNull(store, "store"), Arguments.requireNonNull(handler, "handler"));
  }

  /** Starts polling and renewing leases on the scheduler. Calling it twice does nothing more. */
  public synchronized void start() {
    if (started || stopping) {
      return;
    }
    started = true;
    renewalTask = scheduler.scheduleWithFixedDelay(this::renewQuietly,
        renewalInterval.toMillis(), renewalInterval.toMillis(), TimeUnit.MILLISECONDS);
    scheduler.execute(this::pollLoop);
  }

  private void pollLoop() {
    if (stopping) {
      return;
    }
    Duration next;
    try {
      next = pollOnce() > 0 ? Duration.ZERO : nextIdle();
    } catch (RuntimeException failure) {
      LOG.warn("Outbox drain {} could not claim entries; backing off", worker, failure);
      next = nextIdle();
    }
    try {
      scheduler.schedule(this::pollLoop, next.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException shutDown) {
      LOG.debug("Outbox drain {} scheduler is shut down", worker);
    }
  }

  private synchronized Duration nextIdle() {
    Duration current = idle;
    Duration doubled = idle.multipliedBy(2);
    idle = doubled.compareTo(maxIdle) > 0 ? maxIdle : doubled;
    return current;
  }

  private synchronized void resetIdle() {
    idle = minIdle;
  }

  /**
   * Claims as many due entries as there are free handlers (at most the batch size) and hands them
   * to the handlers.
   *
   * @return how many entries were claimed
   */
  public int pollOnce() {
    int capacity = Math.min(batchSize, concurrency - inFlight.size());
    if (stopping || capacity <= 0) {
      return 0;
    }
    List<Claim> claims = store.claimDue(worker, capacity, lease);
    for (Claim claim : claims) {
      InFlightEntry entry = new InFlightEntry(claim);
      inFlight.put(claim.entryId(), entry);
      claimed.incrementAndGet();
      try {
        handlers.execute(() -> process(entry));
      } catch (RejectedExecutionException shutDown) {
        abandoned.incrementAndGet();
        removeInFlight(claim.entryId());
      }
    }
    if (!claims.isEmpty()) {
      resetIdle();
    }
    return claims.size();
  }

  private void process(InFlightEntry entry) {
    Throwable failure = null;
    entry.handlerStarted();
    try {
      handler.handle(entry.message);
    } catch (Exception thrown) {
      failure = thrown;
    } finally {
      entry.handlerEnded();
      entry.finish();
    }
    try {
      record(entry, failure);
    } catch (RuntimeException storeFailure) {
      LOG.warn("Outbox drain {} could not record the result for entry {}; its lease will expire and"
          + " another attempt will follow", worker, entry.claim().entryId(), storeFailure);
    } finally {
      removeInFlight(entry.claim().entryId());
    }
  }

  private void record(InFlightEntry entry, Throwable failure) {
    if (entry.message.isClaimLost()) {
      lost.incrementAndGet();
      return;
    }
    Claim claim = entry.claim();
    if (failure == null) {
      succeeded.incrementAndGet();
      store.markClaimDelivered(claim, DeliveryReceipt.none());
      return;
    }
    failed.incrementAndGet();
    if (forcedStop) {
      abandoned.incrementAndGet();
      return;
    }
    if (permanent.test(failure)) {
      store.markClaimDeadLettered(claim, new DeadLetter("permanent failure: " + describe(failure)));
    } else if (retryPolicy.isExhausted(claim.attempt())) {
      store.markClaimDeadLettered(claim, new DeadLetter(
          "gave up after " + claim.attempt() + " attempts: " + describe(failure)));
    } else {
      Instant retryAt = clock.instant().plus(retryPolicy.backoff(claim.attempt(), ThreadLocalRandom.current()));
      store.markClaimFailed(claim, new RetryableFailure(retryAt, describe(failure)));
    }
  }

  private static String describe(Throwable failure) {
    String message = failure.getMessage();
    return failure.getClass().getName() + (message == null || message.isBlank() ? "" : ": " + message);
  }

  private void removeInFlight(EntryId id) {
    inFlight.remove(id);
    synchronized (inFlightChanged) {
      inFlightChanged.notifyAll();
    }
  }

  private void renewQuietly() {
    try {
      renewLeases();
    } catch (RuntimeException failure) {
      LOG.warn("Outbox drain {} could not renew leases", worker, failure);
    }
  }

  /**
   * Renews the lease of every in-flight claim whose lease ends within {@code renewWhenRemaining};
   * a renewal that is not applied gives the claim up and interrupts its handler.
   *
   * @return how many leases were renewed
   */
  public int renewLeases() {
    Instant now = clock.instant();
    int renewed = 0;
    for (InFlightEntry entry : inFlight.values()) {
      if (renew(entry, now)) {
        renewed++;
      }
    }
    return renewed;
  }

  private boolean renew(InFlightEntry entry, Instant now) {
    synchronized (entry) {
      Claim claim = entry.claim();
      if (entry.isFinished() || entry.message.isClaimLost()
          || Duration.between(now, claim.leaseUntil()).compareTo(renewWhenRemaining) > 0) {
        return false;
      }
      ClaimTransitionResult result = store.trySaveClaim(claim, LeaseRenewal.of(lease));
      if (result.isApplied()) {
        entry.renewed(Claim.of(result.entry()));
        return true;
      }
      entry.interruptHandler(true);
      return false;
    }
  }

  /**
   * Stops the drain: claims nothing more, waits up to {@code timeout} for in-flight handlers (still
   * renewing their leases), then interrupts the rest and leaves their entries to lease expiry.
   *
   * @param timeout how long in-flight handlers may take to finish
   * @return {@code true} when every in-flight handler finished in time
   */
  public boolean stop(Duration timeout) {
    Arguments.requireNonNull(timeout, "timeout");
    stopping = true;
    boolean drained = awaitInFlight(timeout);
    if (!drained) {
      forcedStop = true;
      inFlight.values().forEach(entry -> entry.interruptHandler(false));
      awaitInFlight(Duration.ofSeconds(1));
    }
    synchronized (this) {
      if (renewalTask != null) {
        renewalTask.cancel(false);
      }
    }
    if (ownsExecutors) {
      handlers.shutdownNow();
      scheduler.shutdownNow();
    }
    return drained;
  }

  private boolean awaitInFlight(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (inFlightChanged) {
      while (!inFlight.isEmpty()) {
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(inFlightChanged, remaining);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return true;
  }

  /** Stops with the configured shutdown timeout. */
  @Override
  public void close() {
    stop(shutdownTimeout);
  }

  /** @return this drain's worker id */
  public WorkerId workerId() {
    return worker;
  }

  /** @return what the drain has done so far */
  public DrainStats stats() {
    return new DrainStats(claimed.get(), succeeded.get(), failed.get(), lost.get(), abandoned.get(), inFlight.size());
  }

  /** Builds an {@link OutboxDrain}. Not thread-safe. */
  public static final class Builder {
    private final OutboxClaimOutcomeStore store;
    private final OutboxMessageHandler handler;
    private WorkerId worker;
    private int batchSize = 10;
    private Duration lease = Duration.ofSeconds(30);
    private int concurrency = 4;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private Duration minIdle = Duration.ofMillis(50);
    private Duration maxIdle = Duration.ofSeconds(2);
    private Duration renewalInterval;
    private Duration renewWhenRemaining;
    private Duration shutdownTimeout = Duration.ofSeconds(30);
    private Clock clock = Clock.systemUTC();
    private Predicate<Throwable> permanent = failure -> failure instanceof PermanentDeliveryFailure;
    private ExecutorService handlers;
    private ScheduledExecutorService scheduler;

    private Builder(OutboxClaimOutcomeStore store, OutboxMessageHandler handler) {
      this.store = store;
      this.handler = handler;
    }

    /** @param value the worker id this drain claims under; required @return this builder */
    public Builder workerId(WorkerId value) {
      this.worker = Arguments.requireNonNull(value, "workerId");
      return this;
    }

    /** @param value the most entries one poll claims (default 10) @return this builder */
    public Builder batchSize(int value) {
      this.batchSize = Arguments.requirePositive(value, "batchSize");
      return this;
    }

    /** @param value the lease of each claim and of each renewal (default 30 s) @return this builder */
    public Builder lease(Duration value) {
      this.lease = Arguments.requirePositive(value, "lease");
      return this;
    }

    /** @param value how many handlers may run at once (default 4) @return this builder */
    public Builder concurrency(int value) {
      this.concurrency = Arguments.requirePositive(value, "concurrency");
      return this;
    }

    /** @param value when to retry and when to give up (default {@link RetryPolicy#defaults()}) @return this builder */
    public Builder retryPolicy(RetryPolicy value) {
      this.retryPolicy = Arguments.requireNonNull(value, "retryPolicy");
      return this;
    }

    /**
     * @param min the wait after the first empty poll (default 50 ms)
     * @param max the longest wait between empty polls (default 2 s)
     * @return this builder
     */
    public Builder idleBackoff(Duration min, Duration max) {
      this.minIdle = Arguments.requirePositive(min, "minIdle");
      this.maxIdle = Arguments.requirePositive(max, "maxIdle");
      if (max.compareTo(min) < 0) {
        throw new IllegalArgumentException("maxIdle must not be shorter than minIdle");
      }
      return this;
    }

    /**
     * @param interval how often leases are checked (default a third of the lease)
     * @param whenRemaining renew a lease once no more than this is left of it (default half the lease)
     * @return this builder
     */
    public Builder leaseRenewal(Duration interval, Duration whenRemaining) {
      this.renewalInterval = Arguments.requirePositive(interval, "renewalInterval");
      this.renewWhenRemaining = Arguments.requirePositive(whenRemaining, "renewWhenRemaining");
      return this;
    }

    /** @param value how long {@link #close()} waits for in-flight handlers (default 30 s) @return this builder */
    public Builder shutdownTimeout(Duration value) {
      this.shutdownTimeout = Arguments.requirePositive(value, "shutdownTimeout");
      return this;
    }

    /** @param value where retry times and lease checks read time @return this builder */
    public Builder clock(Clock value) {
      this.clock = Arguments.requireNonNull(value, "clock");
      return this;
    }

    /**
     * @param value which handler exceptions dead-letter at once (default: {@link PermanentDeliveryFailure})
     * @return this builder
     */
    public Builder permanentWhen(Predicate<Throwable> value) {
      this.permanent = Arguments.requireNonNull(value, "permanentWhen");
      return this;
    }

    /**
     * Runs handlers and the poll loop on executors the caller owns (and shuts down).
     *
     * @param handlerExecutor runs handler calls
     * @param pollScheduler runs the poll loop and lease renewal
     * @return this builder
     */
    public Builder executors(ExecutorService handlerExecutor, ScheduledExecutorService pollScheduler) {
      this.handlers = Arguments.requireNonNull(handlerExecutor, "handlerExecutor");
      this.scheduler = Arguments.requireNonNull(pollScheduler, "pollScheduler");
      return this;
    }

    /** @return the drain, not yet started */
    public OutboxDrain build() {
      if (renewWhenRemaining != null && renewWhenRemaining.compareTo(lease) >= 0) {
        throw new IllegalArgumentException("renewWhenRemaining must be shorter than the lease");
      }
      return new OutboxDrain(this);
    }
  }
}
