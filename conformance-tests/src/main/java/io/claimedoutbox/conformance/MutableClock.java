package io.claimedoutbox.conformance;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock the suite moves by hand, so leases expire without sleeping. Thread-safe: workers of the
 * concurrent history run advance it while others read it.
 */
public final class MutableClock extends Clock {

  private final AtomicReference<Instant> now;

  /**
   * @param start the first instant the clock reads
   */
  public MutableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  /**
   * Moves the clock forward.
   *
   * @param amount how far; not negative
   * @return the new instant
   */
  public Instant advance(Duration amount) {
    if (amount.isNegative()) {
      throw new IllegalArgumentException("a clock only moves forward, not by " + amount);
    }
    return now.updateAndGet(current -> current.plus(amount));
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the suite's clock is always UTC");
  }
}
