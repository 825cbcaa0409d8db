package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and times every call of a store into a {@link MeterRegistry}, whatever the adapter, as a
 * {@linkplain OutboxClaimOutcomeStore#listen listener} of the store itself (no decorator: the store
 * keeps every capability it has).
 *
 * <p>Per transition call: one {@link OutboxMeterNames#transitionDuration} record (unless an
 * observation times it, see {@link Builder#timedByObservation}); per transition asked, one
 * {@link OutboxMeterNames#transitionAttempts} increment tagged with the outcome, the durable status
 * and the transition — through a {@code try…} method or a compatibility method, which all end in
 * the store's transition call — and, for each that was not applied, one WARN naming the worker, the
 * entry, the transition, the outcome and the durable status (applied ones at DEBUG). A call that
 * throws counts each of its transitions in {@link OutboxMeterNames#transitionErrors}. Claims and
 * appends are counted and timed per call too. So a drain that keeps calling the compatibility
 * methods still reports a losing worker's non-applied transition instead of counting the winner's
 * write as its own. Thread-safe.
 */
public final class OutboxStoreMeters implements OutboxStoreListener {

  private final MeterRegistry registry;
  private final OutboxMeterNames names;
  private final Logger log;
  private final boolean timesTransitions;

  private OutboxStoreMeters(Builder builder) {
    this.registry = builder.registry;
    this.names = builder.names;
    this.log = builder.log;
    this.timesTransitions = !builder.timedByObservation;
  }

  /**
   * Observes {@code store} into {@code registry} with the default names, and registers the backlog
   * gauges ({@link BacklogGauges}) when the store offers {@link OutboxOperations}.
   *
   * @param store the store to observe; it keeps calling this listener until the registration closes
   * @param registry where the meters go
   * @return the registration
   */
  public static Registration observe(OutboxClaimOutcomeStore store, MeterRegistry registry) {
    Registration registration = Arguments.requireNonNull(store, "store").listen(builder(registry).build());
    if (store instanceof OutboxOperations operations) {
      BacklogGauges.register(operations, registry);
    }
    return registration;
  }

  /**
   * @param registry where the meters go
   * @return a builder: default names, this class's logger, transitions timed here
   */
  public static Builder builder(MeterRegistry registry) {
    return new Builder(Arguments.requireNonNull(registry, "registry"));
  }

  @Override
  public CallListener starting(StoreCall call) {
    return switch (call.kind()) {
      case TRANSITION -> new Transitions(call.transitions());
      case CLAIM_DUE, CLAIM_BY_KEYS, CLAIM_APPENDED, CLAIM_ON_APPEND -> new Claims(call.kind());
      case APPEND -> new Appends();
      case FIND, DELETE -> CallListener.NONE;
    };
  }

  private final class Transitions implements CallListener {
    private final List<ClaimTransition> batch;

    Transitions(List<ClaimTransition> batch) {
      this.batch = batch;
    }

    @Override
    public void transitioned(List<ClaimTransitionResult> results, long nanos) {
      if (timesTransitions) {
        registry.timer(names.transitionDuration(), OutboxMetrics.TRANSITION, TransitionTags.kindOf(batch),
            OutboxMetrics.OUTCOME, TransitionTags.outcomeOf(results)).record(nanos, TimeUnit.NANOSECONDS);
      }
      for (int i = 0; i < batch.size(); i++) {
        count(batch.get(i), results.get(i));
      }
    }

    @Override
    public void failed(RuntimeException failure, long nanos) {
      if (timesTransitions) {
        registry.timer(names.transitionDuration(), OutboxMetrics.TRANSITION, TransitionTags.kindOf(batch),
            OutboxMetrics.OUTCOME, OutboxMetrics.ERROR_OUTCOME).record(nanos, TimeUnit.NANOSECONDS);
      }
      for (ClaimTransition transition : batch) {
        registry.counter(names.transitionErrors(), OutboxMetrics.TRANSITION, transition.kind().tagValue(),
            OutboxMetrics.EXCEPTION, failure.getClass().getSimpleName()).increment();
      }
    }
  }

  private void count(ClaimTransition transition, ClaimTransitionResult result) {
    Claim claim = transition.claim();
    String kind = transition.kind().tagValue();
    String outcome = result.outcome().tagValue();
    String durableStatus = result.durableStatus().map(EntryStatus::tagValue).orElse(OutboxMetrics.NO_ROW);
    registry.counter(names.transitionAttempts(), OutboxMetrics.OUTCOME, outcome,
        OutboxMetrics.DURABLE_STATUS, durableStatus, OutboxMetrics.TRANSITION, kind).increment();
    if (result.isApplied()) {
      log.debug("Claimed outbox transition applied: worker={} entry={} transition={} durable_status={}",
          claim.owner(), claim.entryId(), kind, durableStatus);
    } else {
      log.warn("Claimed outbox transition not applied: worker={} entry={} transition={} outcome={} durable_status={}",
          claim.owner(), claim.entryId(), kind, outcome, durableStatus);
    }
  }

  private final class Claims implements CallListener {
    private final StoreCall.Kind kind;

    Claims(StoreCall.Kind kind) {
      this.kind = kind;
    }

    @Override
    public void claimed(List<Claim> claims, long nanos) {
      registry.counter(names.claimedEntries(), OutboxMetrics.CALL, kind.tagValue()).increment(claims.size());
      if (kind != StoreCall.Kind.CLAIM_ON_APPEND) {
        time(OutboxMetrics.OK_OUTCOME, nanos);
      }
    }

    @Override
    public void failed(RuntimeException failure, long nanos) {
      time(OutboxMetrics.ERROR_OUTCOME, nanos);
    }

    private void time(String outcome, long nanos) {
      registry.timer(names.claimDuration(), OutboxMetrics.CALL, kind.tagValue(), OutboxMetrics.OUTCOME, outcome)
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  private final class Appends implements CallListener {
    @Override
    public void appended(List<OutboxEntry> entries, long nanos) {
      registry.counter(names.appendedEntries()).increment(entries.size());
      registry.timer(names.appendDuration(), OutboxMetrics.OUTCOME, OutboxMetrics.OK_OUTCOME)
          .record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void failed(RuntimeException failure, long nanos) {
      registry.timer(names.appendDuration(), OutboxMetrics.OUTCOME, OutboxMetrics.ERROR_OUTCOME)
          .record(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /** Builds an {@link OutboxStoreMeters}. Not thread-safe. */
  public static final class Builder {
    private final MeterRegistry registry;
    private OutboxMeterNames names = OutboxMeterNames.defaults();
    private Logger log = LoggerFactory.getLogger(OutboxStoreMeters.class);
    private boolean timedByObservation;

    private Builder(MeterRegistry registry) {
      this.registry = registry;
    }

    /**
     * @param value the meter names
     * @return this builder
     */
    public Builder names(OutboxMeterNames value) {
      this.names = Arguments.requireNonNull(value, "names");
      return this;
    }

    /**
     * @param value where the warnings for transitions that were not applied go
     * @return this builder
     */
    public Builder log(Logger value) {
      this.log = Arguments.requireNonNull(value, "log");
      return this;
    }

    /**
     * Leaves the transition timer to an {@link OutboxStoreObservations} of the same store, whose
     * observations a meter handler turns into that timer: each call is then timed once, not twice.
     *
     * @return this builder
     */
    public Builder timedByObservation() {
      this.timedByObservation = true;
      return this;
    }

    /** @return the listener; register it with {@link OutboxClaimOutcomeStore#listen} */
    public OutboxStoreMeters build() {
      return new OutboxStoreMeters(this);
    }
  }
}
