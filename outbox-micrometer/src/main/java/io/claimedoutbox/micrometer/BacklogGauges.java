package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.port.OutboxOperations;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two numbers on-call engineers graph first, as gauges: {@link OutboxMetrics#ENTRIES} per
 * status and {@link OutboxMetrics#OLDEST_DUE_AGE} in seconds (0 when nothing is due).
 *
 * <p>The gauges read through a {@link BacklogReader}, so however often they are scraped the store
 * is read at most once per refresh interval. A failed read is logged at WARN and the last good
 * values stay (NaN before the first), so a scrape never throws. Thread-safe.
 */
public final class BacklogGauges {

  private static final Logger LOG = LoggerFactory.getLogger(BacklogGauges.class);

  private final BacklogReader reader;
  private BacklogReader.Backlog lastGood;
  private RuntimeException lastLogged;

  private BacklogGauges(BacklogReader reader) {
    this.reader = reader;
  }

  /**
   * Registers the gauges of {@code operations} in {@code registry}, read every
   * {@link BacklogReader#DEFAULT_REFRESH}.
   *
   * @param operations the store's operations
   * @param registry where the gauges go
   * @return the gauges
   */
  public static BacklogGauges register(OutboxOperations operations, MeterRegistry registry) {
    return register(BacklogReader.of(operations), registry);
  }

  /**
   * Registers the gauges of {@code operations} in {@code registry}.
   *
   * @param operations the store's operations
   * @param registry where the gauges go
   * @param refresh the least time between two reads of the store, not negative
   * @param clock where the refresh interval is measured
   * @return the gauges
   */
  public static BacklogGauges register(OutboxOperations operations, MeterRegistry registry, Duration refresh,
      Clock clock) {
    return register(BacklogReader.of(operations, refresh, clock), registry);
  }

  /**
   * Registers gauges that read through {@code reader}, which others (a health check) may share.
   *
   * @param reader the backlog reader
   * @param registry where the gauges go
   * @return the gauges
   */
  public static BacklogGauges register(BacklogReader reader, MeterRegistry registry) {
    return register(reader, registry, OutboxMeterNames.defaults());
  }

  /**
   * Registers gauges that read through {@code reader}, under {@code names}.
   *
   * @param reader the backlog reader
   * @param registry where the gauges go
   * @param names whose {@link OutboxMeterNames#entries} and {@link OutboxMeterNames#oldestDueAge} name the gauges
   * @return the gauges
   */
  public static BacklogGauges register(BacklogReader reader, MeterRegistry registry, OutboxMeterNames names) {
    BacklogGauges gauges = new BacklogGauges(Arguments.requireNonNull(reader, "reader"));
    Arguments.requireNonNull(registry, "registry");
    Arguments.requireNonNull(names, "names");
    for (EntryStatus status : EntryStatus.values()) {
      // Strongly referenced: the registry holds the only reference, and a weak one would let the
      // gauges be collected and report NaN.
      Gauge.builder(names.entries(), gauges, self -> self.count(status))
          .strongReference(true)
          .tag(OutboxMetrics.TAG_STATUS, status.tagValue())
          .description("Outbox entries in this status, as of the last backlog read")
          .register(registry);
    }
    Gauge.builder(names.oldestDueAge(), gauges, BacklogGauges::oldestDueAgeSeconds)
        .strongReference(true)
        .baseUnit("seconds")
        .description("How long the oldest due outbox entry has waited, as of the last backlog read")
        .register(registry);
    return gauges;
  }

  private double count(EntryStatus status) {
    BacklogReader.Backlog backlog = current();
    return backlog == null ? Double.NaN : backlog.counts().of(status);
  }

  private double oldestDueAgeSeconds() {
    BacklogReader.Backlog backlog = current();
    return backlog == null ? Double.NaN : backlog.oldestDueAge().map(age -> age.toNanos() / 1e9).orElse(0.0);
  }

  private synchronized BacklogReader.Backlog current() {
    try {
      lastGood = reader.read();
    } catch (RuntimeException failure) {
      if (failure != lastLogged) {
        lastLogged = failure;
        LOG.warn("outbox backlog gauges: reading the backlog failed, keeping the last values: {}", failure.toString());
      }
    }
    return lastGood;
  }
}
