package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs an action on a daemon thread of its own, once for any number of {@link #request requests}
 * made before the run starts: requests that arrive while it runs are answered by one more run, no
 * sooner than {@code minInterval} after the previous run started. A store uses it to tell other
 * processes about commits: one message per burst of appends, never on the appending thread, and at
 * a high append rate at most one per interval instead of one per commit. The thread starts with the
 * first request. The action's exceptions are the action's to handle; an escaped one is dropped and
 * the next request runs it again.
 */
public final class CoalescingRunner {

  private final Runnable action;
  private final String threadName;
  private final long minIntervalNanos;
  private final AtomicBoolean requested = new AtomicBoolean();
  private Thread thread;

  /**
   * @param action what to run
   * @param threadName the name of the thread that runs it
   * @param minInterval the shortest time between the starts of two runs; zero or positive
   */
  public CoalescingRunner(Runnable action, String threadName, Duration minInterval) {
    this.action = Arguments.requireNonNull(action, "action");
    this.threadName = Arguments.requireNonNull(threadName, "threadName");
    Arguments.requireNonNull(minInterval, "minInterval");
    if (minInterval.isNegative()) {
      throw new IllegalArgumentException("minInterval must not be negative, was " + minInterval);
    }
    this.minIntervalNanos = minInterval.toNanos();
  }

  /** Asks for a run; returns at once. */
  public void request() {
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
      try {
        action.run();
      } catch (RuntimeException dropped) {
        // the action reports its own failures; this thread must survive them
      }
      long rest = started + minIntervalNanos - System.nanoTime();
      if (rest > 0) {
        LockSupport.parkNanos(rest);
      }
    }
  }
}
