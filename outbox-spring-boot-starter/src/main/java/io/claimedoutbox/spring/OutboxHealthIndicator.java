package io.claimedoutbox.spring;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StatusCounts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code /actuator/health} component {@code outbox}: UP with the backlog per status and the oldest
 * due entry's wait; DOWN when the store cannot be read, or when that wait exceeds
 * {@code claimed-outbox.health.max-oldest-due-age} (when set).
 *
 * <p>Counting is a scan on SQL backends and probes come every few seconds, so a successful read is
 * reused for {@code claimed-outbox.health.refresh} (15 s); a failed one is never reused.
 */
public final class OutboxHealthIndicator extends AbstractHealthIndicator {

  private final OutboxOperations operations;
  private final String backend;
  private final Duration maxOldestDueAge;
  private final Duration refresh;
  private final Clock clock;
  private Reading last;

  private record Reading(StatusCounts counts, Optional<Duration> oldest, Instant at) {}

  OutboxHealthIndicator(OutboxOperations operations, String backend, Duration maxOldestDueAge, Duration refresh,
      Clock clock) {
    super("Claimed Outbox health check failed");
    this.operations = operations;
    this.backend = backend;
    this.maxOldestDueAge = maxOldestDueAge;
    this.refresh = refresh;
    this.clock = clock;
  }

  private synchronized Reading read() {
    Instant now = clock.instant();
    if (last == null || !now.isBefore(last.at().plus(refresh))) {
      last = new Reading(operations.countByStatus(), operations.oldestDueAge(), now);
    }
    return last;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    Reading reading = read();
    StatusCounts counts = reading.counts();
    Optional<Duration> oldest = reading.oldest();
    boolean tooOld = maxOldestDueAge != null && oldest.filter(age -> age.compareTo(maxOldestDueAge) > 0).isPresent();
    (tooOld ? builder.down() : builder.up()).withDetail("backend", backend);
    for (EntryStatus status : EntryStatus.values()) {
      builder.withDetail(status.tagValue(), counts.of(status));
    }
    builder.withDetail("oldestDueAgeSeconds", oldest.map(age -> age.toMillis() / 1000.0).orElse(0.0));
    if (tooOld) {
      builder.withDetail("reason", "the oldest due entry has waited longer than " + maxOldestDueAge);
    }
  }
}
