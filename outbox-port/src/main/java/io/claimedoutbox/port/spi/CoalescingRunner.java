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
 * <p>The interval starts at {@code minInterval}. While requests keep coming faster than one per
 * {@code minInterval} it doubles up to {@code maxInterval}; slower than that, it is back at
 * {@code minInterval}. (The test is the rate: "more than one request per run" would keep an interval
 * that widened by chance wide at rates far below one per {@code minInterval}, since a wider interval
 * gathers more requests per run.) So a trickle is announced at once and a
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
    long lastStarted = System.nanoTime();
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
      int requests = requestsSinceRun.getAndSet(0);
      // faster than one request per minInterval since the last run: a stream, widen; else a trickle
      boolean stream = requests > 1 && (long) requests * minIntervalNanos > started - lastStarted;
      intervalNanos = stream ? Math.min(maxIntervalNanos, Math.max(intervalNanos * 2, 1_000_000L)) : minIntervalNanos;
      lastStarted = started;
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
