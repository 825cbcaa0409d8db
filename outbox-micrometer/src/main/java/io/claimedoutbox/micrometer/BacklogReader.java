package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StatusCounts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The backlog — entries per status and the oldest due entry's wait — read from the store at most
 * once per refresh interval, whoever asks: gauge scrapes and health probes share one reading
 * instead of each running the store's count (a scan on SQL backends). The outcome of a read, a
 * failure included, serves every caller until the interval has passed. Thread-safe.
 */
public final class BacklogReader {

  /** How long one reading serves by default. */
  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(15);

  /**
   * One reading.
   *
   * @param counts entries per status
   * @param oldestDueAge the oldest due entry's wait, empty when nothing is due
   */
  public record Backlog(StatusCounts counts, Optional<Duration> oldestDueAge) {}

  private final OutboxOperations operations;
  private final Duration refresh;
  private final Clock clock;
  private Backlog last;
  private RuntimeException lastFailure;
  private Instant readAt;

  private BacklogReader(OutboxOperations operations, Duration refresh, Clock clock) {
    this.operations = operations;
    this.refresh = refresh;
    this.clock = clock;
  }

  /**
   * @param operations the store's operations
   * @return a reader refreshed every {@link #DEFAULT_REFRESH}
   */
  public static BacklogReader of(OutboxOperations operations) {
    return of(operations, DEFAULT_REFRESH, Clock.systemUTC());
  }

  /**
   * @param operations the store's operations
   * @param refresh how long one reading serves, not negative
   * @param clock where the interval is measured
   * @return the reader
   */
  public static BacklogReader of(OutboxOperations operations, Duration refresh, Clock clock) {
    Arguments.requireNonNull(operations, "operations");
    if (Arguments.requireNonNull(refresh, "refresh").isNegative()) {
      throw new IllegalArgumentException("refresh must not be negative, was " + refresh);
    }
    return new BacklogReader(operations, refresh, Arguments.requireNonNull(clock, "clock"));
  }

  /**
   * The current reading: the last one while it is younger than the refresh interval, else a new one.
   *
   * @return the backlog
   * @throws RuntimeException the store's failure, for as long as that reading serves
   */
  public synchronized Backlog read() {
    Instant now = clock.instant();
    if (readAt == null || !now.isBefore(readAt.plus(refresh))) {
      readAt = now;
      try {
        last = new Backlog(operations.countByStatus(), operations.oldestDueAge());
        lastFailure = null;
      } catch (RuntimeException failure) {
        lastFailure = failure;
      }
    }
    if (lastFailure != null) {
      throw lastFailure;
    }
    return last;
  }
}
