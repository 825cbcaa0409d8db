package io.claimedoutbox.drain;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Counts the drain's store calls of one kind that are running, so a stop can close the gate (no
 * new call starts) and wait until the running ones have returned: after {@link OutboxDrain#stop}
 * no call of the drain reaches the store, whose pool the application may close next.
 */
final class CallGate {

  private int running;
  private boolean closed;

  /**
   * Runs the call unless the gate is closed.
   *
   * @param call the store call
   * @param whenClosed what to answer without calling when the gate is closed
   * @return the call's answer, or {@code whenClosed}'s
   */
  <T> T run(Supplier<T> call, Supplier<T> whenClosed) {
    synchronized (this) {
      if (closed) {
        return whenClosed.get();
      }
      running++;
    }
    try {
      return call.get();
    } finally {
      synchronized (this) {
        running--;
        if (running == 0) {
          notifyAll();
        }
      }
    }
  }

  /**
   * Lets no new call start and waits for the running ones.
   *
   * @param timeout the longest wait
   * @return whether none is running any more
   */
  synchronized boolean closeAndAwait(Duration timeout) {
    closed = true;
    long deadline = System.nanoTime() + timeout.toNanos();
    while (running > 0) {
      long remaining = deadline - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      try {
        TimeUnit.NANOSECONDS.timedWait(this, remaining);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }
}
