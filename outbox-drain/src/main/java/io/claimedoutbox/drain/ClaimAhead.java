package io.claimedoutbox.drain;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * How many claims may wait for a handler: as many as the handlers finish in {@code claimAhead}
 * (the rate measured between polls, smoothed; never more than a quarter of the lease, so a waiting
 * claim starts long before its lease runs out), at least {@code concurrency}, at most
 * {@code bufferSize}. Fast handlers get a deep buffer so a claim round trip never leaves them idle;
 * slow handlers get a shallow one, so a drain never hoards entries that other workers could start
 * on, and buffered leases need little renewal. Starts at {@code concurrency} and grows within a few
 * polls.
 */
final class ClaimAhead {

  private final DrainSettings settings;
  private final double aheadSeconds;
  private final LongSupplier nanoTime;
  private long lastCompleted;
  private long lastNanos;
  private double ratePerSecond;

  ClaimAhead(DrainSettings settings) {
    this(settings, System::nanoTime);
  }

  ClaimAhead(DrainSettings settings, LongSupplier nanoTime) {
    this.settings = settings;
    Duration quarterLease = settings.lease().dividedBy(4);
    Duration horizon = settings.claimAhead().compareTo(quarterLease) < 0 ? settings.claimAhead() : quarterLease;
    this.aheadSeconds = horizon.toNanos() / 1e9;
    this.nanoTime = nanoTime;
    this.lastNanos = nanoTime.getAsLong();
  }

  /**
   * @param completed how many handler calls have finished so far
   * @return how many claims may wait for a handler now
   */
  synchronized int bufferNow(long completed) {
    long now = nanoTime.getAsLong();
    double seconds = (now - lastNanos) / 1e9;
    if (seconds >= 0.001) {
      double observed = (completed - lastCompleted) / seconds;
      ratePerSecond = ratePerSecond == 0 ? observed : (ratePerSecond + observed) / 2;
      lastCompleted = completed;
      lastNanos = now;
    }
    long wanted = (long) Math.ceil(ratePerSecond * aheadSeconds);
    return (int) Math.min(settings.bufferSize(), Math.max(settings.concurrency(), wanted));
  }
}
