package io.claimedoutbox.spring;

import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.drain.OutboxDrain;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.function.ToDoubleFunction;

/**
 * The drain's own counts as meters, read from {@link OutboxDrain#stats()} whenever the registry is
 * scraped (no bookkeeping of their own): what it claimed and handled, what it holds, and every part's
 * failures, so a drain that stopped claiming shows on a dashboard as well as in the health check.
 * Tagged with the drain's worker id.
 */
final class DrainMeters {

  /** Counter: claims handed to handlers. */
  static final String CLAIMED = "outbox.drain.claimed";
  /** Counter: handler calls, tagged {@code result} {@code succeeded} or {@code failed}. */
  static final String HANDLED = "outbox.drain.handled";
  /** Counter: failed claim calls and failed lease renewal rounds, tagged {@code part}. */
  static final String FAILURES = "outbox.drain.failures";
  /** Counter: {@link Error}s (out of memory, a handler's assertion) the drain caught and survived. */
  static final String ERRORS = "outbox.drain.errors";
  /** Gauge: claim calls failed since the last that worked. */
  static final String CLAIM_FAILURES_IN_A_ROW = "outbox.drain.claim_failures_in_a_row";
  /** Gauge: claims held now. */
  static final String IN_FLIGHT = "outbox.drain.in_flight";
  /** Gauge: payload bytes of the claims held now. */
  static final String HELD_PAYLOAD = "outbox.drain.held_payload_bytes";

  private DrainMeters() {}

  static void bind(OutboxDrain drain, MeterRegistry registry) {
    String worker = drain.workerId().value();
    counter(registry, CLAIMED, drain, DrainStats::claimed, worker);
    counter(registry, HANDLED, drain, DrainStats::handlerSucceeded, worker, "result", "succeeded");
    counter(registry, HANDLED, drain, DrainStats::handlerFailed, worker, "result", "failed");
    counter(registry, FAILURES, drain, DrainStats::claimFailures, worker, "part", "claim");
    counter(registry, FAILURES, drain, DrainStats::renewalFailures, worker, "part", "renewal");
    counter(registry, ERRORS, drain, DrainStats::errors, worker);
    gauge(registry, CLAIM_FAILURES_IN_A_ROW, drain, DrainStats::claimFailuresInARow, worker);
    gauge(registry, IN_FLIGHT, drain, DrainStats::inFlight, worker);
    gauge(registry, HELD_PAYLOAD, drain, DrainStats::heldPayloadBytes, worker);
  }

  private static void counter(MeterRegistry registry, String name, OutboxDrain drain, ToDoubleFunction<DrainStats> value,
      String worker, String... tags) {
    FunctionCounter.builder(name, drain, source -> value.applyAsDouble(source.stats()))
        .tag("worker", worker).tags(tags).register(registry);
  }

  private static void gauge(MeterRegistry registry, String name, OutboxDrain drain, ToDoubleFunction<DrainStats> value,
      String worker) {
    // the lifecycle bean holds the drain for the context's life: the registry's weak reference stays live
    Gauge.builder(name, drain, source -> value.applyAsDouble(source.stats())).tag("worker", worker)
        .strongReference(true).register(registry);
  }
}
