package io.claimedoutbox.spring;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StatusCounts;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code /actuator/health} component {@code outbox}: UP with the backlog per status and the oldest
 * due entry's wait; DOWN when the store cannot be read, or when that wait exceeds
 * {@code claimed-outbox.health.max-oldest-due-age} (when set).
 */
public final class OutboxHealthIndicator extends AbstractHealthIndicator {

  private final OutboxOperations operations;
  private final String backend;
  private final Duration maxOldestDueAge;

  OutboxHealthIndicator(OutboxOperations operations, String backend, Duration maxOldestDueAge) {
    super("Claimed Outbox health check failed");
    this.operations = operations;
    this.backend = backend;
    this.maxOldestDueAge = maxOldestDueAge;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    StatusCounts counts = operations.countByStatus();
    Optional<Duration> oldest = operations.oldestDueAge();
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
