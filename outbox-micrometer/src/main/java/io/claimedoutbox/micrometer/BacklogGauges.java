package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StatusCounts;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two numbers on-call engineers graph first, as gauges: {@link OutboxMetrics#ENTRIES} per
 * status and {@link OutboxMetrics#OLDEST_DUE_AGE} in seconds (0 when nothing is due).
 *
 * <p>Every scrape of a gauge would otherwise be a query: the gauges share one snapshot, read from
 * the store at most once per refresh interval, on the first gauge read after it ran out. A failed
 * read is logged at WARN and the previous values stay (NaN before the first success), so a
 * scrape never throws. Thread-safe.
 */
public final class BacklogGauges {

  /** How often the snapshot is read from the store by default. */
  public static final Duration DEFAULT_REFRESH = Duration.ofSeconds(15);

  private static final Logger LOG = LoggerFactory.getLogger(BacklogGauges.class);

  private final OutboxOperations operations;
  private final Duration refresh;
  private final Clock clock;
  private Snapshot snapshot = new Snapshot(null, Double.NaN, Instant.MIN);

  private record Snapshot(StatusCounts counts, double oldestDueAgeSeconds, Instant readAt) {}

  private BacklogGauges(OutboxOperations operations, Duration refresh, Clock clock) {
    this.operations = operations;
    this.refresh = refresh;
    this.clock = clock;
  }

  /**
   * Registers the gauges of {@code operations} in {@code registry}, refreshed every
   * {@link #DEFAULT_REFRESH}.
   *
   * @param operations the store's operations
   * @param registry where the gauges go
   * @return the gauges' shared snapshot
   */
  public static BacklogGauges register(OutboxOperations operations, MeterRegistry registry) {
    return register(operations, registry, DEFAULT_REFRESH, Clock.systemUTC());
  }

  /**
   * Registers the gauges of {@code operations} in {@code registry}.
   *
   * @param operations the store's operations
   * @param registry where the gauges go
   * @param refresh the least time between two reads of the store, not negative
   * @param clock where the refresh interval is measured
   * @return the gauges' shared snapshot
   */
  public static BacklogGauges register(OutboxOperations operations, MeterRegistry registry, Duration refresh,
      Clock clock) {
    Arguments.requireNonNull(operations, "operations");
    Arguments.requireNonNull(registry, "registry");
    Arguments.requireNonNull(refresh, "refresh");
    if (refresh.isNegative()) {
      throw new IllegalArgumentException("refresh must not be negative, was " + refresh);
    }
    BacklogGauges gauges = new BacklogGauges(operations, refresh, Arguments.requireNonNull(clock, "clock"));
    for (EntryStatus status : EntryStatus.values()) {
      // Strongly referenced: the registry holds the only reference, and a weak one would let the
      // snapshot be collected and the gauges report NaN.
      Gauge.builder(OutboxMetrics.ENTRIES, gauges, self -> self.count(status))
          .strongReference(true)
          .tag(OutboxMetrics.TAG_STATUS, status.tagValue())
          .description("Outbox entries in this status, as of the last backlog read")
          .register(registry);
    }
    Gauge.builder(OutboxMetrics.OLDEST_DUE_AGE, gauges, BacklogGauges::oldestDueAgeSeconds)
        .strongReference(true)
        .baseUnit("seconds")
        .description("How long the oldest due outbox entry has waited, as of the last backlog read")
        .register(registry);
    return gauges;
  }

  private double count(EntryStatus status) {
    StatusCounts counts = current().counts();
    return counts == null ? Double.NaN : counts.of(status);
  }

  private double oldestDueAgeSeconds() {
    return current().oldestDueAgeSeconds();
  }

  private synchronized Snapshot current() {
    Instant now = clock.instant();
    if (snapshot.readAt().plus(refresh).isAfter(now) && snapshot.readAt() != Instant.MIN) {
      return snapshot;
    }
    try {
      StatusCounts counts = operations.countByStatus();
      Optional<Duration> age = operations.oldestDueAge();
      snapshot = new Snapshot(counts, age.map(value -> value.toNanos() / 1e9).orElse(0.0), now);
    } catch (RuntimeException failure) {
      LOG.warn("outbox backlog gauges: reading the backlog failed, keeping the last values: {}", failure.toString());
      snapshot = new Snapshot(snapshot.counts(), snapshot.oldestDueAgeSeconds(), now);
    }
    return snapshot;
  }
}
