package io.claimedoutbox.spring;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.micrometer.BacklogReader;
import io.claimedoutbox.port.StatusCounts;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * {@code /actuator/health} component {@code outbox}: UP with the backlog per status and the oldest
 * due entry's wait, and the drain's state (what it holds, its failures); DOWN when the store cannot be
 * read, when that wait exceeds {@code claimed-outbox.health.max-oldest-due-age} (when set), or when
 * the drain's last {@value #CLAIM_FAILURES_DOWN} claims failed (it is not claiming).
 *
 * <p>Counting is a scan on SQL backends and probes come every few seconds, so the indicator reads
 * through the {@link BacklogReader} the backlog gauges share: one store read per
 * {@code claimed-outbox.backlog-refresh} (15 s) serves both; a failed read is DOWN for that long.
 */
public final class OutboxHealthIndicator extends AbstractHealthIndicator {

  /** Claim calls failed in a row from which the drain counts as not claiming: DOWN. */
  static final int CLAIM_FAILURES_DOWN = 3;

  private final BacklogReader backlog;
  private final String backend;
  private final Duration maxOldestDueAge;
  private final Supplier<Optional<DrainStats>> drain;

  OutboxHealthIndicator(BacklogReader backlog, String backend, Duration maxOldestDueAge,
      Supplier<Optional<DrainStats>> drain) {
    super("Claimed Outbox health check failed");
    this.backlog = backlog;
    this.backend = backend;
    this.maxOldestDueAge = maxOldestDueAge;
    this.drain = drain;
  }

  @Override
  protected void doHealthCheck(Health.Builder builder) {
    BacklogReader.Backlog reading = backlog.read();
    StatusCounts counts = reading.counts();
    Optional<Duration> oldest = reading.oldestDueAge();
    boolean tooOld = maxOldestDueAge != null && oldest.filter(age -> age.compareTo(maxOldestDueAge) > 0).isPresent();
    Optional<DrainStats> stats = drain.get();
    boolean notClaiming = stats.filter(drainStats -> drainStats.claimFailuresInARow() >= CLAIM_FAILURES_DOWN).isPresent();
    (tooOld || notClaiming ? builder.down() : builder.up()).withDetail("backend", backend);
    for (EntryStatus status : EntryStatus.values()) {
      builder.withDetail(status.tagValue(), counts.of(status));
    }
    builder.withDetail("oldestDueAgeSeconds", oldest.map(age -> age.toMillis() / 1000.0).orElse(0.0));
    stats.ifPresent(drainStats -> {
      Map<String, Object> details = new LinkedHashMap<>();
      details.put("inFlight", drainStats.inFlight());
      details.put("heldPayloadBytes", drainStats.heldPayloadBytes());
      details.put("claimFailuresInARow", drainStats.claimFailuresInARow());
      details.put("errors", drainStats.errors());
      drainStats.lastFailure().ifPresent(last -> details.put("lastFailure", last));
      builder.withDetail("drain", details);
    });
    if (tooOld) {
      builder.withDetail("reason", "the oldest due entry has waited longer than " + maxOldestDueAge);
    } else if (notClaiming) {
      builder.withDetail("reason", "the drain's last " + stats.get().claimFailuresInARow() + " claims failed: "
          + stats.get().lastFailure().orElse(""));
    }
  }
}
