package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StoreArguments;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wraps any {@link OutboxClaimOutcomeStore} so that every claimed transition is observed the same
 * way, whatever the adapter: it is itself one object implementing all three store contracts.
 *
 * <p>For every transition attempt — through a {@code try…} method or a compatibility method, which
 * both end in {@link #tryTransition} — it increments {@link OutboxMetrics#TRANSITION_ATTEMPTS}
 * tagged with the outcome, the durable status and the transition, and records
 * {@link OutboxMetrics#TRANSITION_DURATION}. Every attempt that was not applied is logged once at
 * WARN, naming the worker, the entry, the transition, the outcome and the durable status; applied
 * attempts are logged at DEBUG only. A call that throws is counted in
 * {@link OutboxMetrics#TRANSITION_ERRORS} and rethrown unchanged.
 *
 * <p>When the store also implements {@link OutboxOperations} (every shipped adapter does), the
 * backlog gauges of {@link BacklogGauges} are registered too, reading through a
 * {@link BacklogReader} of their own or the one passed in.
 *
 * <p>So a drain that keeps calling the compatibility methods still reports a losing worker's
 * non-applied transition instead of counting the winner's write as its own. Thread-safe when the
 * wrapped store is.
 */
public final class ObservedOutboxStore extends ForwardingOutboxStore {

  private final MeterRegistry registry;
  private final Logger log;

  private ObservedOutboxStore(OutboxClaimOutcomeStore delegate, MeterRegistry registry, Logger log,
      BacklogReader backlog) {
    super(delegate);
    this.registry = Arguments.requireNonNull(registry, "registry");
    this.log = Arguments.requireNonNull(log, "log");
    if (backlog != null) {
      BacklogGauges.register(backlog, registry);
    }
  }

  private static BacklogReader backlogOf(OutboxClaimOutcomeStore store) {
    return store instanceof OutboxOperations operations ? BacklogReader.of(operations) : null;
  }

  /**
   * Observes {@code store} into {@code registry}, logging through this class's logger.
   *
   * @param store the store to observe
   * @param registry where the meters go
   * @return the observing store
   */
  public static ObservedOutboxStore observe(OutboxClaimOutcomeStore store, MeterRegistry registry) {
    return new ObservedOutboxStore(store, registry, LoggerFactory.getLogger(ObservedOutboxStore.class), backlogOf(store));
  }

  /**
   * As {@link #observe(OutboxClaimOutcomeStore, MeterRegistry)}, logging through {@code log}.
   *
   * @param store the store to observe
   * @param registry where the meters go
   * @param log where the warnings go
   * @return the observing store
   */
  public static ObservedOutboxStore observe(OutboxClaimOutcomeStore store, MeterRegistry registry, Logger log) {
    return new ObservedOutboxStore(store, registry, log, backlogOf(store));
  }

  /**
   * As {@link #observe(OutboxClaimOutcomeStore, MeterRegistry)}, with the backlog gauges reading
   * through {@code backlog}, which a health check may share (one store read serves both).
   *
   * @param store the store to observe
   * @param registry where the meters go
   * @param backlog the backlog reader the gauges use
   * @return the observing store
   */
  public static ObservedOutboxStore observe(OutboxClaimOutcomeStore store, MeterRegistry registry,
      BacklogReader backlog) {
    return new ObservedOutboxStore(store, registry, LoggerFactory.getLogger(ObservedOutboxStore.class),
        Arguments.requireNonNull(backlog, "backlog"));
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    long started = System.nanoTime();
    ClaimTransitionResult result;
    try {
      result = delegate().tryTransition(claim, request);
    } catch (RuntimeException failure) {
      countError(request.kind().tagValue(), failure, System.nanoTime() - started);
      throw failure;
    }
    record(claim, request, result, System.nanoTime() - started);
    return result;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each element is counted, timed and logged on its own, exactly as a single call would be;
   * its duration is the batch call's, the time its caller waited for it.
   */
  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    List<ClaimTransition> batch = StoreArguments.checkTransitionAll(transitions);
    long started = System.nanoTime();
    List<ClaimTransitionResult> results;
    try {
      results = delegate().tryTransitionAll(batch);
    } catch (RuntimeException failure) {
      long elapsed = System.nanoTime() - started;
      batch.forEach(transition -> countError(transition.kind().tagValue(), failure, elapsed));
      throw failure;
    }
    long elapsed = System.nanoTime() - started;
    for (int i = 0; i < batch.size(); i++) {
      record(batch.get(i).claim(), batch.get(i).request(), results.get(i), elapsed);
    }
    return results;
  }

  private void countError(String transition, RuntimeException failure, long elapsedNanos) {
    registry.timer(OutboxMetrics.TRANSITION_DURATION,
            OutboxMetrics.TRANSITION, transition, OutboxMetrics.OUTCOME, OutboxMetrics.ERROR_OUTCOME)
        .record(elapsedNanos, TimeUnit.NANOSECONDS);
    registry.counter(OutboxMetrics.TRANSITION_ERRORS,
        OutboxMetrics.TRANSITION, transition, OutboxMetrics.EXCEPTION, failure.getClass().getSimpleName()).increment();
  }

  private void record(Claim claim, TransitionRequest request, ClaimTransitionResult result, long elapsedNanos) {
    String transition = request.kind().tagValue();
    String outcome = result.outcome().tagValue();
    String durableStatus = result.durableStatus().map(EntryStatus::tagValue).orElse(OutboxMetrics.NO_ROW);
    registry.timer(OutboxMetrics.TRANSITION_DURATION,
            OutboxMetrics.TRANSITION, transition, OutboxMetrics.OUTCOME, outcome)
        .record(elapsedNanos, TimeUnit.NANOSECONDS);
    registry.counter(OutboxMetrics.TRANSITION_ATTEMPTS, OutboxMetrics.OUTCOME, outcome,
        OutboxMetrics.DURABLE_STATUS, durableStatus, OutboxMetrics.TRANSITION, transition).increment();
    if (result.isApplied()) {
      log.debug("Claimed outbox transition applied: worker={} entry={} transition={} durable_status={}",
          claim.owner(), claim.entryId(), transition, durableStatus);
    } else {
      log.warn("Claimed outbox transition not applied: worker={} entry={} transition={} outcome={} durable_status={}",
          claim.owner(), claim.entryId(), transition, outcome, durableStatus);
    }
  }
}
