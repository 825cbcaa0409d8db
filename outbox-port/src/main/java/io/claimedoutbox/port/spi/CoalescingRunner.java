package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs an action on a daemon thread of its own, once for any number of {@link #request requests}
 * made before the run starts: requests that arrive while it runs are answered by one more run, no
 * sooner than the interval after the previous run started. A store uses it to tell other processes
 * about commits: one message per burst of appends, never on the appending thread, and at a high
 * append rate at most one per interval instead of one per commit.
 *
 * <p>The interval starts at {@code minInterval}. While runs keep answering more than one request
 * each, requests come faster than runs, and it doubles up to {@code maxInterval}; a run that
 * answers one request brings it back to {@code minInterval}. So a trickle is announced at once and a
 * stream costs a few messages a second (each message costs the receiver a wake-up, and a PostgreSQL
 * {@code NOTIFY} a transaction with a commit record of its own). The thread starts with the first
 * request. The action's exceptions are the action's to handle; an escaped one is dropped and the
 * next request runs it again.
 */
public final class CoalescingRunner {

  private final Runnable action;
  private final String threadName;
  private final long minIntervalNanos;
  private final long maxIntervalNanos;
  private final AtomicBoolean requested = new AtomicBoolean();
  private final AtomicInteger requestsSinceRun = new AtomicInteger();
  private Thread thread;

  /**
   * A runner whose interval stays at {@code minInterval}.
   *
   * @param action what to run
   * @param threadName the name of the thread that runs it
   * @param minInterval the shortest time between the starts of two runs; zero or positive
   */
  public CoalescingRunner(Runnable action, String threadName, Duration minInterval) {
    this(action, threadName, minInterval, minInterval);
  }

  /**
   * @param action what to run
   * @param threadName the name of the thread that runs it
   * @param minInterval the shortest time between the starts of two runs; zero or positive
   * @param maxInterval the widest the interval grows while requests come faster than runs; at least
   *     {@code minInterval}
   */
  public CoalescingRunner(Runnable action, String threadName, Duration minInterval, Duration maxInterval) {
    this.action = Arguments.requireNonNull(action, "action");
    this.threadName = Arguments.requireNonNull(threadName, "threadName");
    Arguments.requireNonNull(minInterval, "minInterval");
    Arguments.requireNonNull(maxInterval, "maxInterval");
    if (minInterval.isNegative()) {
      throw new IllegalArgumentException("minInterval must not be negative, was " + minInterval);
    }
    if (maxInterval.compareTo(minInterval) < 0) {
      throw new IllegalArgumentException("maxInterval must be at least minInterval (" + minInterval + "), was "
          + maxInterval);
    }
    this.minIntervalNanos = minInterval.toNanos();
    this.maxIntervalNanos = maxInterval.toNanos();
  }

  /** Asks for a run; returns at once. */
  public void request() {
    requestsSinceRun.incrementAndGet();
    if (requested.compareAndSet(false, true)) {
      synchronized (this) {
        if (thread == null) {
          thread = new Thread(this::runWhenRequested, threadName);
          thread.setDaemon(true);
          thread.start();
        }
        notifyAll();
      }
    }
  }

  private void runWhenRequested() {
    long intervalNanos = minIntervalNanos;
    while (true) {
      synchronized (this) {
        while (!requested.get()) {
          try {
            wait();
          } catch (InterruptedException interrupted) {
            return;
          }
        }
      }
      requested.set(false);
      long started = System.nanoTime();
      intervalNanos = requestsSinceRun.getAndSet(0) > 1
          ? Math.min(maxIntervalNanos, Math.max(intervalNanos * 2, 1_000_000L)) : minIntervalNanos;
      try {
        action.run();
      } catch (RuntimeException dropped) {
        // the action reports its own failures; this thread must survive them
      }
      long rest = started + intervalNanos - System.nanoTime();
      if (rest > 0) {
        LockSupport.parkNanos(rest);
      }
    }
  }
}
