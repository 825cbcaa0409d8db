package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * The store's own time, for workers whose clocks may disagree: every store built on it decides
 * leases by one clock, the server's, so a worker whose clock runs ahead cannot take a lease another
 * worker still holds. Adapters offer it as {@code storeTime()} on their builders.
 *
 * <p>It asks the server for its time once, then counts forward with this JVM's monotonic clock
 * ({@link System#nanoTime()}, which no wall-clock step moves) and asks again every
 * {@code refresh}; each answer is placed at the middle of the round trip, so the error is at most
 * half a round trip plus the drift since the last answer — milliseconds, far below any lease. A
 * claim or transition therefore still costs one round trip. When a refresh fails, the last answer
 * keeps counting forward. This JVM's wall clock is never read. Thread-safe.
 */
public final class StoreTimeClock extends Clock {

  /** How often the adapters' {@code storeTime()} asks the server again. */
  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(10);

  private final Supplier<Instant> serverNow;
  private final long refreshNanos;
  private volatile Sample last;

  /** The server's time at a point of this JVM's monotonic clock. */
  private record Sample(Instant server, long atNanos) {}

  private StoreTimeClock(Supplier<Instant> serverNow, Duration refresh) {
    this.serverNow = serverNow;
    this.refreshNanos = refresh.toNanos();
    this.last = sample();
  }

  /**
   * Asks the server once and returns the clock.
   *
   * @param serverNow one round trip that returns the server's time
   * @param refresh how often to ask again, positive
   * @return the clock
   * @throws io.claimedoutbox.port.OutboxStoreException when the first answer cannot be had
   */
  public static StoreTimeClock of(Supplier<Instant> serverNow, Duration refresh) {
    Arguments.requireNonNull(serverNow, "serverNow");
    Arguments.requirePositive(refresh, "refresh");
    return new StoreTimeClock(serverNow, refresh);
  }

  private Sample sample() {
    long before = System.nanoTime();
    Instant server = serverNow.get();
    long after = System.nanoTime();
    return new Sample(server, before + (after - before) / 2);
  }

  @Override
  public Instant instant() {
    Sample current = last;
    long now = System.nanoTime();
    if (now - current.atNanos() > refreshNanos) {
      current = refresh(current);
      now = System.nanoTime();
    }
    return current.server().plusNanos(now - current.atNanos());
  }

  private synchronized Sample refresh(Sample seen) {
    if (last != seen) {
      return last;
    }
    try {
      last = sample();
    } catch (RuntimeException unreachable) {
      // The last answer keeps counting; the store call that follows will report the outage itself.
      last = new Sample(seen.server().plusNanos(System.nanoTime() - seen.atNanos()), System.nanoTime());
    }
    return last;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("store time is UTC");
  }
}
