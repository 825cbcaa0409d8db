package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreArguments;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The hosted drain: a long-running component that claims entries for one worker id, hands each to
 * an {@link OutboxMessageHandler}, and records the result — delivered, failed (retry later with
 * exponential backoff and jitter) or dead-lettered (permanent failure, or attempts used up). Observe
 * its store ({@code OutboxStoreMeters} in {@code outbox-micrometer}, a listener of the store) and a
 * losing worker's transitions show up as non-applied warnings and metrics, never as its own success.
 *
 * <p>Four parts, each in its own class:
 *
 * <ul>
 *   <li>{@link ClaimPoller}: claims ahead in batches of {@code batchSize}, keeping waiting claims
 *       for about {@code claimAhead} of handler work ({@link ClaimAhead}, at most
 *       {@code bufferSize}); never sleeps while there is work (a full pool parks it until a handler
 *       finishes), backs off only when the store returned fewer entries than asked, and cuts a
 *       back-off short when the store reports a commit ({@link Builder#wakeOnCommit}).
 *   <li>{@link HandlerPool}: at most {@code concurrency} handlers at once; each entry is handled on
 *       its own, so a poison entry never blocks others.
 *   <li>{@link LeaseKeeper}: every {@code renewalInterval}, renews the claims (running or waiting)
 *       whose lease ends within {@code renewWhenRemaining}; a waiting claim is checked once more
 *       before its handler starts. A renewal that is not applied means the claim is lost: the
 *       handler is interrupted, told through {@link ClaimedMessage#isClaimLost()}, and its result is
 *       never recorded.
 *   <li>{@link ResultRecorder}: results that finish close together are written in one
 *       {@link OutboxClaimOutcomeStore#tryTransitionAll} call, each with its own outcome.
 * </ul>
 *
 * <p><b>Shutdown</b> ({@link #stop}): claim nothing more, release claims no handler has started
 * (failed, due at once, so another worker takes them without waiting for the lease), let running
 * handlers finish within the timeout (renewing their leases meanwhile), then interrupt the rest
 * and leave their entries to lease expiry. Nothing is lost, and nothing is marked delivered that a
 * handler did not deliver.
 *
 * <p>{@link #pollOnce()} and {@link #renewLeases()} are public so a host (or a test) can drive the
 * drain with its own scheduling; {@link #start()} schedules them itself. Time comes from the
 * injected {@link Clock}. Thread-safe.
 */
public final class OutboxDrain implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OutboxDrain.class);
  private static final AtomicInteger DRAIN_NUMBER = new AtomicInteger();

  /** The default of {@link Builder#maxHeldPayloadBytes}: 32 MiB. */
  public static final long DEFAULT_MAX_HELD_PAYLOAD_BYTES = 32L << 20;

  private final DrainSettings settings;
  private final ExecutorService handlers;
  private final ScheduledExecutorService scheduler;
  private final boolean ownsExecutors;
  private final HandlerPool pool;
  private final ClaimPoller poller;
  private final CallGate renewals = new CallGate();
  private final DrainFailures failures;
  private final CommitNotifications notifications;

  private boolean started;
  private boolean stopped;
  private ScheduledFuture<?> renewalTask;
  private CommitNotifications.Subscription commits;

  private OutboxDrain(Builder b, DrainSettings settings) {
    this.settings = settings;
    this.ownsExecutors = b.handlers == null;
    int number = DRAIN_NUMBER.incrementAndGet();
    this.handlers = b.handlers != null ? b.handlers : Executors.newFixedThreadPool(settings.concurrency(),
        runnable -> daemon(runnable, "outbox-drain-" + number + "-handler"));
    this.scheduler = b.scheduler != null ? b.scheduler : Executors.newSingleThreadScheduledExecutor(
        runnable -> daemon(runnable, "outbox-drain-" + number + "-scheduler"));
    ClaimPoller[] wakeUp = new ClaimPoller[1];
    this.failures = new DrainFailures(settings.worker().value(), settings.clock());
    this.pool = new HandlerPool(settings, b.store, b.handler, handlers, scheduler, entry -> wakeUp[0].released(entry),
        failures);
    this.poller = new ClaimPoller(b.store, settings, pool, scheduler, failures, b.wakeOnCommit && b.claimOnAppend);
    wakeUp[0] = poller;
    this.notifications = b.wakeOnCommit ? b.store.commitNotifications() : CommitNotifications.NONE;
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }

  /**
   * Starts building a drain.
   *
   * @param store where entries are claimed and recorded; observe it with {@code OutboxStoreMeters}
   *     ({@code outbox-micrometer}) to count and log every outcome
   * @param handler what emits each message
   * @return a builder; {@link Builder#workerId} is required
   */
  public static Builder builder(OutboxClaimOutcomeStore store, OutboxMessageHandler handler) {
    return new Builder(Arguments.requireNonNull(store, "store"), Arguments.requireNonNull(handler, "handler"));
  }

  /** Starts polling and renewing leases on the scheduler. Calling it twice does nothing more. */
  public synchronized void start() {
    if (started || stopped) {
      return;
    }
    started = true;
    long interval = settings.renewalInterval().toMillis();
    renewalTask = scheduler.scheduleWithFixedDelay(this::renewQuietly, interval, interval, TimeUnit.MILLISECONDS);
    scheduler.execute(poller::loop);
    commits = notifications.subscribe(poller);
  }

  /**
   * Claims as many due entries as the drain has room for (at most the batch size) and hands them
   * to the handlers.
   *
   * @return how many entries were claimed
   */
  public int pollOnce() {
    return poller.pollOnce();
  }

  private void renewQuietly() {
    try {
      renewals.run(this::renewLeases, () -> 0);
    } catch (RuntimeException | Error failure) {
      // a scheduled task that throws is never run again: every failure, an Error too, ends here
      failures.failed(DrainFailures.Part.RENEWAL, failure);
    }
  }

  /**
   * Renews the lease of every held claim (running or waiting for a handler) whose lease ends within
   * {@code renewWhenRemaining}, in one batched call; a renewal that is not applied gives the claim
   * up and interrupts its handler.
   *
   * @return how many leases were renewed
   */
  public int renewLeases() {
    if (pool.dropLapsedReservations()) {
      poller.resumeIfParked();
    }
    return pool.renewLeases();
  }

  /**
   * Stops the drain: claims nothing more, releases claims no handler has started, waits up to
   * {@code timeout} for running handlers (still renewing their leases), then interrupts the rest
   * and leaves their entries to lease expiry. When it returns, no store call of the drain is
   * running and none will start: a claim that was running has returned and its claims were
   * released, so the application may close the store's pool next.
   *
   * @param timeout how long running handlers may take to finish
   * @return {@code true} when every held claim was finished or released in time
   */
  public boolean stop(Duration timeout) {
    Arguments.requireNonNull(timeout, "timeout");
    synchronized (this) {
      stopped = true;
      if (commits != null) {
        commits.close();
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    pool.stopping();
    boolean drained = poller.stop(timeout);
    drained &= pool.awaitEmpty(remaining(deadline));
    if (!drained) {
      pool.forceStop();
      pool.awaitEmpty(Duration.ofSeconds(1));
    }
    synchronized (this) {
      if (renewalTask != null) {
        renewalTask.cancel(false);
      }
    }
    // a renewal running now would reach the store after this returns, when the application may have
    // closed its pool; it is short (one batched call), so it is waited for whatever the timeout
    renewals.closeAndAwait(settings.shutdownTimeout());
    if (ownsExecutors) {
      handlers.shutdownNow();
      scheduler.shutdownNow();
    }
    return drained;
  }

  private static Duration remaining(long deadline) {
    return Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
  }

  /** Stops with the configured shutdown timeout. */
  @Override
  public void close() {
    stop(settings.shutdownTimeout());
  }

  /** @return this drain's worker id */
  public WorkerId workerId() {
    return settings.worker();
  }

  DrainSettings settings() {
    return settings;
  }

  /** @return what the drain has done so far */
  public DrainStats stats() {
    return pool.stats();
  }

  /** Builds an {@link OutboxDrain}. Not thread-safe. */
  public static final class Builder {
    private final OutboxClaimOutcomeStore store;
    private final OutboxMessageHandler handler;
    private WorkerId worker;
    private int batchSize = 500;
    private int bufferSize = 1000;
    private long maxHeldPayloadBytes = DEFAULT_MAX_HELD_PAYLOAD_BYTES;
    private Duration claimAhead = Duration.ofSeconds(1);
    private int resultBatchSize = 500;
    private Duration lease = Duration.ofSeconds(30);
    private int concurrency = 4;
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private Duration minIdle = Duration.ofMillis(50);
    private Duration maxIdle = Duration.ofSeconds(5);
    private boolean wakeOnCommit = true;
    private boolean claimOnAppend = true;
    private Duration wakeUpGap = Duration.ofMillis(2);
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

    /**
     * @param value the worker id this drain claims under; required
     * @return this builder
     */
    public Builder workerId(WorkerId value) {
      this.worker = Arguments.requireNonNull(value, "workerId");
      return this;
    }

    /**
     * @param value the most entries one poll claims (default 500)
     * @return this builder
     */
    public Builder batchSize(int value) {
      this.batchSize = Arguments.requirePositive(value, "batchSize");
      if (value > StoreArguments.MAX_BATCH) {
        throw new IllegalArgumentException("batchSize must be at most " + StoreArguments.MAX_BATCH + ", was " + value);
      }
      return this;
    }

    /**
     * @param value the most claimed entries that may wait for a free handler, on top of the ones
     *     being handled (default 1000, two batches, so the next batch is claimed while one is
     *     handled); how many actually wait is what the handlers finish in {@link #claimAhead}
     * @return this builder
     */
    public Builder bufferSize(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("bufferSize must not be negative, was " + value);
      }
      this.bufferSize = value;
      return this;
    }

    /**
     * @param value the most payload bytes the drain holds at once, over its claims waiting, running
     *     and being recorded (default {@value OutboxDrain#DEFAULT_MAX_HELD_PAYLOAD_BYTES}, 32 MiB):
     *     claims ask the store for no more than what is left, so memory stays bounded whatever the
     *     payload sizes. One claim may go over by its first entry (at most
     *     {@link OutboxMessage#MAX_PAYLOAD_BYTES}), so an entry larger than
     *     what is left still moves once the drain holds nothing else
     * @return this builder
     */
    public Builder maxHeldPayloadBytes(long value) {
      if (value < OutboxMessage.MAX_PAYLOAD_BYTES) {
        throw new IllegalArgumentException("maxHeldPayloadBytes must be at least "
            + OutboxMessage.MAX_PAYLOAD_BYTES + " (one largest payload), was " + value);
      }
      this.maxHeldPayloadBytes = value;
      return this;
    }

    /**
     * @param value how much handler work to claim ahead, at the handlers' recent rate (default 1 s,
     *     and never more than a quarter of the lease): fast handlers get a deep buffer, slow ones a
     *     shallow one (never less than the concurrency, never more than {@link #bufferSize})
     * @return this builder
     */
    public Builder claimAhead(Duration value) {
      this.claimAhead = Arguments.requirePositive(value, "claimAhead");
      return this;
    }

    /**
     * @param value the most results written in one call to the store (default 500)
     * @return this builder
     */
    public Builder resultBatchSize(int value) {
      this.resultBatchSize = Arguments.requirePositive(value, "resultBatchSize");
      if (value > StoreArguments.MAX_BATCH) {
        throw new IllegalArgumentException("resultBatchSize must be at most " + StoreArguments.MAX_BATCH + ", was " + value);
      }
      return this;
    }

    /**
     * @param value the lease of each claim and of each renewal (default 30 s)
     * @return this builder
     */
    public Builder lease(Duration value) {
      this.lease = Arguments.requireLease(value, "lease");
      return this;
    }

    /**
     * @param value how many handlers may run at once (default 4)
     * @return this builder
     */
    public Builder concurrency(int value) {
      this.concurrency = Arguments.requirePositive(value, "concurrency");
      return this;
    }

    /**
     * @param value when to retry and when to give up (default {@link RetryPolicy#defaults()})
     * @return this builder
     */
    public Builder retryPolicy(RetryPolicy value) {
      this.retryPolicy = Arguments.requireNonNull(value, "retryPolicy");
      return this;
    }

    /**
     * @param min the wait after the first empty poll (default 50 ms)
     * @param max the longest wait between empty polls (default 5 s: an idle drain costs its store
     *     one claim call per 5 s, and commits wake it at once wherever the store reports them)
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
     * Whether the drain claims as soon as its store reports a commit of new entries (default yes),
     * instead of only at its next poll. Polling goes on either way; see
     * {@link io.claimedoutbox.port.CommitNotifications} for what a store reports.
     *
     * @param value {@code false} to poll only
     * @return this builder
     */
    public Builder wakeOnCommit(boolean value) {
      this.wakeOnCommit = value;
      return this;
    }

    /**
     * Whether the drain takes entries appended in its JVM already claimed, while it has room
     * (default yes, with {@link #wakeOnCommit}): where the store offers
     * ({@link io.claimedoutbox.port.StoreCapability#CLAIM_ON_APPEND}), such an entry is written
     * claimed by this drain in the append's own write and handled as soon as its commit is
     * reported, without a claim. Its lease runs from the append; should this JVM die first, the
     * entry waits out that lease and any drain takes it, as after any claim. {@code false} claims
     * committed entries with one conditional write instead ({@code claimAppended}).
     *
     * @param value {@code false} to leave appended entries pending
     * @return this builder
     */
    public Builder claimOnAppend(boolean value) {
      this.claimOnAppend = value;
      return this;
    }

    /**
     * The shortest time between the start of one claim and a claim that a commit notification
     * asks for (default 2 ms): commits arriving closer together than this are taken by one claim.
     * While this JVM's commits arrive faster than one per gap (500/s at the default) the drain
     * doubles the gap, up to 50 ms, and it comes back to this value as soon as they are slower: a high append rate becomes
     * fewer, fuller claims (at most 50 ms more latency; fewer claims and result writes are fewer
     * commits competing with the application's own), a trickle is claimed at once.
     *
     * @param value zero or positive, at most a second
     * @return this builder
     */
    public Builder wakeUpGap(Duration value) {
      Arguments.requireNonNull(value, "wakeUpGap");
      if (value.isNegative() || value.compareTo(Duration.ofSeconds(1)) > 0) {
        throw new IllegalArgumentException("wakeUpGap must be between 0 and 1 s, was " + value);
      }
      this.wakeUpGap = value;
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

    /**
     * @param value how long {@link #close()} waits for in-flight handlers (default 30 s)
     * @return this builder
     */
    public Builder shutdownTimeout(Duration value) {
      this.shutdownTimeout = Arguments.requirePositive(value, "shutdownTimeout");
      return this;
    }

    /**
     * @param value where retry times and lease checks read time
     * @return this builder
     */
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
      Arguments.requireNonNull(worker, "workerId");
      if (renewWhenRemaining != null && renewWhenRemaining.compareTo(lease) >= 0) {
        throw new IllegalArgumentException("renewWhenRemaining must be shorter than the lease");
      }
      return new OutboxDrain(this, new DrainSettings(worker, batchSize, concurrency, bufferSize, maxHeldPayloadBytes,
          claimAhead,
          resultBatchSize, lease, minIdle, maxIdle, wakeUpGap,
          renewalInterval != null ? renewalInterval : lease.dividedBy(3),
          renewWhenRemaining != null ? renewWhenRemaining : lease.dividedBy(2),
          shutdownTimeout, retryPolicy, permanent, clock));
    }
  }
}
