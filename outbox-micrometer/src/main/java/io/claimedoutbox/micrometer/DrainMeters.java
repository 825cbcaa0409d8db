package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.drain.OutboxDrain;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.ToDoubleFunction;

/**
 * A drain's own counts ({@link DrainStats}) as meters, read from {@link OutboxDrain#stats()} whenever
 * the registry is scraped (no bookkeeping of their own), each tagged {@link OutboxMetrics#DRAIN_WORKER}
 * with the drain's worker id, under {@link OutboxMeterNames#drain} ({@code outbox.drain} by default):
 * function counters {@code .claimed}, {@code .handled} (tag {@code result}: {@code succeeded},
 * {@code failed}), {@code .failures} (tag {@code part}: {@code claim}, {@code renewal}),
 * {@code .errors}, {@code .claims_lost}, {@code .released_unhandled}, {@code .left_to_lease_expiry},
 * {@code .results_settled_later}; gauges {@code .claim_failures_in_a_row} (above zero: the drain is
 * not claiming right now), {@code .in_flight}, {@code .held_payload_bytes}. They count handler
 * results as the drain saw them; whether a store write was this drain's is what
 * {@link OutboxStoreMeters}' attempts counter says.
 */
public final class DrainMeters {

  private DrainMeters() {}

  /**
   * Registers the meters of {@code drain} with the default names.
   *
   * @param drain the drain; the registry holds it strongly, for as long as the meters are registered
   * @param registry where the meters go
   */
  public static void bind(OutboxDrain drain, MeterRegistry registry) {
    bind(drain, registry, OutboxMeterNames.defaults());
  }

  /**
   * Registers the meters of {@code drain}.
   *
   * @param drain the drain; the registry holds it strongly, for as long as the meters are registered
   * @param registry where the meters go
   * @param names whose {@link OutboxMeterNames#drain} prefixes the meters
   */
  public static void bind(OutboxDrain drain, MeterRegistry registry, OutboxMeterNames names) {
    Arguments.requireNonNull(drain, "drain");
    Arguments.requireNonNull(registry, "registry");
    String prefix = Arguments.requireNonNull(names, "names").drain() + ".";
    Tags worker = Tags.of(OutboxMetrics.DRAIN_WORKER, drain.workerId().value());
    Meters meters = new Meters(registry, drain, prefix, worker);
    meters.counter("claimed", DrainStats::claimed, "Claims handed to handlers");
    meters.counter("handled", DrainStats::handlerSucceeded, "Handler calls", "result", "succeeded");
    meters.counter("handled", DrainStats::handlerFailed, "Handler calls", "result", "failed");
    meters.counter("failures", DrainStats::claimFailures, "Failed claim calls and lease renewal rounds", "part", "claim");
    meters.counter("failures", DrainStats::renewalFailures, "Failed claim calls and lease renewal rounds",
        "part", "renewal");
    meters.counter("errors", DrainStats::errors, "Errors the drain caught and survived");
    meters.counter("claims_lost", DrainStats::claimsLost, "Claims given up because a lease renewal was not applied");
    meters.counter("released_unhandled", DrainStats::releasedUnhandled,
        "Claims released unhandled when the drain stopped");
    meters.counter("left_to_lease_expiry", DrainStats::leftToLeaseExpiry, "Claims abandoned at a forced shutdown");
    meters.counter("results_settled_later", DrainStats::resultsSettledLater,
        "Results whose first write failed and were settled afterwards");
    meters.gauge("claim_failures_in_a_row", DrainStats::claimFailuresInARow,
        "Claim calls that failed since the last one that worked");
    meters.gauge("in_flight", DrainStats::inFlight, "Claims the drain holds now");
    meters.gauge("held_payload_bytes", DrainStats::heldPayloadBytes, "Payload bytes of the claims the drain holds now");
  }

  private record Meters(MeterRegistry registry, OutboxDrain drain, String prefix, Tags worker) {

    void counter(String name, ToDoubleFunction<DrainStats> value, String description, String... tags) {
      FunctionCounter.builder(prefix + name, drain, read(value)).tags(worker).tags(tags).description(description)
          .register(registry);
    }

    void gauge(String name, ToDoubleFunction<DrainStats> value, String description) {
      // held strongly: a weak reference would let a drain nobody else holds report NaN
      Gauge.builder(prefix + name, drain, read(value)).strongReference(true).tags(worker).description(description)
          .register(registry);
    }

    private static ToDoubleFunction<OutboxDrain> read(ToDoubleFunction<DrainStats> value) {
      return drain -> value.applyAsDouble(drain.stats());
    }
  }
}
