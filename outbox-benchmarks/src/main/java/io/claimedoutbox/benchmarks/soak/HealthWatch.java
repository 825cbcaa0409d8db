package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.drain.OutboxDrain;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What operators see during the soak: every 50 ms, whether any drain has as many claim failures in a
 * row as make the Spring Boot health indicator say DOWN, and the distinct last failures the drains
 * report (the kind of each, without its time).
 */
final class HealthWatch {

  /** The starter's threshold ({@code OutboxHealthIndicator}): that many failed claims in a row is DOWN. */
  static final int CLAIM_FAILURES_DOWN = 3;
  private static final long PERIOD_MILLIS = 50;
  private static final int KINDS_KEPT = 4;

  private final List<OutboxDrain> drains;
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
  private final Set<String> failures = new LinkedHashSet<>();
  private long downSamples;

  private HealthWatch(List<OutboxDrain> drains) {
    this.drains = drains;
  }

  static HealthWatch start(List<OutboxDrain> drains) {
    HealthWatch watch = new HealthWatch(drains);
    watch.sampler.scheduleAtFixedRate(watch::sample, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
    return watch;
  }

  private synchronized void sample() {
    boolean down = false;
    for (OutboxDrain drain : drains) {
      DrainStats stats = drain.stats();
      down |= stats.claimFailuresInARow() >= CLAIM_FAILURES_DOWN;
      stats.lastFailure().map(HealthWatch::kind).ifPresent(kind -> {
        if (failures.size() < KINDS_KEPT) {
          failures.add(kind);
        }
      });
    }
    if (down) {
      downSamples++;
    }
  }

  /** The failure without its time and ids, cut short: what kind of failure a reader would see. */
  private static String kind(String failure) {
    String kind = failure.replaceAll(" at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z", "")
        .replaceAll("[0-9a-f]{8}-[0-9a-f-]{27}(\\.\\d+)?", "<id>");
    return kind.length() > 160 ? kind.substring(0, 160) + "…" : kind;
  }

  void stop() throws InterruptedException {
    sampler.shutdownNow();
    sampler.awaitTermination(5, TimeUnit.SECONDS);
  }

  synchronized double downSeconds() {
    return downSamples * PERIOD_MILLIS / 1000.0;
  }

  synchronized List<String> failures() {
    return new ArrayList<>(failures);
  }
}
