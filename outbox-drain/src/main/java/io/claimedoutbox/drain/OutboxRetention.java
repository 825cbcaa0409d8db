package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.OperationArguments;
import io.claimedoutbox.port.OutboxOperations;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The retention setting, applied: a small job next to the drain that deletes delivered and
 * dead-lettered entries once they are older than {@link Builder#keepFinishedFor}, in batches of
 * {@link Builder#batchSize} ({@link OutboxOperations#purgeFinished}). Each batch is one bounded
 * statement or script over finished entries only, so claims keep running beside it.
 *
 * <p>Defaults: keep finished entries 7 days, batches of 1,000, a run every minute. A dead letter is
 * purged like a delivered entry once it is old enough: keep it longer than operators take to look
 * at dead letters. Thread-safe.
 */
public final class OutboxRetention implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OutboxRetention.class);

  private final OutboxOperations operations;
  private final Duration keepFinishedFor;
  private final int batchSize;
  private final Duration every;
  private final AtomicLong purged = new AtomicLong();
  private volatile ScheduledFuture<?> schedule;

  private OutboxRetention(Builder builder) {
    this.operations = builder.operations;
    this.keepFinishedFor = builder.keepFinishedFor;
    this.batchSize = builder.batchSize;
    this.every = builder.every;
  }

  /**
   * @param operations the store's operations (every shipped adapter's store implements them)
   * @return a builder with the defaults
   */
  public static Builder builder(OutboxOperations operations) {
    return new Builder(Arguments.requireNonNull(operations, "operations"));
  }

  /**
   * Purges everything old enough now, batch after batch until one comes back short.
   *
   * @return how many entries were deleted
   */
  public long runOnce() {
    long deleted = operations.purgeAll(keepFinishedFor, batchSize);
    purged.addAndGet(deleted);
    if (deleted > 0) {
      LOG.info("outbox retention: deleted {} finished entries older than {}", deleted, keepFinishedFor);
    }
    return deleted;
  }

  /**
   * Runs {@link #runOnce} on {@code scheduler} every {@link Builder#every}, the first run at once. A
   * run that fails is logged and the next one comes as scheduled.
   *
   * @param scheduler where the runs happen; the job does not shut it down
   * @throws IllegalStateException if already started
   */
  public synchronized void start(ScheduledExecutorService scheduler) {
    Arguments.requireNonNull(scheduler, "scheduler");
    if (schedule != null) {
      throw new IllegalStateException("retention already started");
    }
    schedule = scheduler.scheduleWithFixedDelay(this::runLogged, 0, every.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void runLogged() {
    try {
      runOnce();
    } catch (RuntimeException failure) {
      LOG.warn("outbox retention: a purge run failed, the next one is in {}: {}", every, failure.toString());
    }
  }

  /** @return entries this job deleted since it was built */
  public long purged() {
    return purged.get();
  }

  /** Stops the scheduled runs; a run under way finishes its current batch. */
  @Override
  public synchronized void close() {
    if (schedule != null) {
      schedule.cancel(false);
    }
  }

  /** Builds an {@link OutboxRetention}. Not thread-safe. */
  public static final class Builder {
    private final OutboxOperations operations;
    private Duration keepFinishedFor = Duration.ofDays(7);
    private int batchSize = 1_000;
    private Duration every = Duration.ofMinutes(1);

    private Builder(OutboxOperations operations) {
      this.operations = operations;
    }

    /**
     * @param value how long a delivered or dead-lettered entry stays after its last write, not negative
     * @return this builder
     */
    public Builder keepFinishedFor(Duration value) {
      if (Arguments.requireNonNull(value, "keepFinishedFor").isNegative()) {
        throw new IllegalArgumentException("keepFinishedFor must not be negative, was " + value);
      }
      this.keepFinishedFor = value;
      return this;
    }

    /**
     * @param value entries per delete, 1 to {@link OutboxOperations#MAX_BATCH}
     * @return this builder
     */
    public Builder batchSize(int value) {
      OperationArguments.checkPurge(Duration.ZERO, value);
      this.batchSize = value;
      return this;
    }

    /**
     * @param value the pause between two runs, positive
     * @return this builder
     */
    public Builder every(Duration value) {
      this.every = Arguments.requirePositive(value, "every");
      return this;
    }

    /** @return the job, not started */
    public OutboxRetention build() {
      return new OutboxRetention(this);
    }
  }
}
