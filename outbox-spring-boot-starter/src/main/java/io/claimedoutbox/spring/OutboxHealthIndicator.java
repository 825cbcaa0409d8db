package io.claimedoutbox.spring;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.micrometer.BacklogReader;
import io.claimedoutbox.port.StatusCounts;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code /actuator/health} component {@code outbox}: UP with the backlog per status and the oldest
 * due entry's wait; DOWN when the store cannot be read, or when that wait exceeds
 * {@code claimed-outbox.health.max-oldest-due-age} (when set).
 *
 * <p>Counting is a scan on SQL backends and probes come every few seconds, so the indicator reads
 * through the {@link BacklogReader} the backlog gauges share: one store read per
 * {@code claimed-outbox.backlog-refresh} (15 s) serves both; a failed read is DOWN for that long.
 */
public final class OutboxHealthIndicator extends AbstractHealthIndicator {

  private final BacklogReader backlog;
  private final String backend;
  private final Duration maxOldestDueAge;

  OutboxHealthIndicator(BacklogReader backlog, String backend, Duration maxOldestDueAge) {
    super("Claimed Outbox health check failed");
    this.backlog = backlog;
    this.backend = backend;
    this.maxOldestDueAge = maxOldestDueAge;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    BacklogReader.Backlog reading = backlog.read();
    StatusCounts counts = reading.counts();
    Optional<Duration> oldest = reading.oldestDueAge();
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
