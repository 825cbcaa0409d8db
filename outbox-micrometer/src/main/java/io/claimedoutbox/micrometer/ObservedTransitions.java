package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreArguments;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;

/**
 * Makes every claimed transition a Micrometer {@link Observation} named {@value #NAME}, so whatever
 * handlers the application registered (a tracing bridge to OpenTelemetry or Brave, a meter handler)
 * see it: a span per transition, a child of the delivery span when the drain runs under
 * {@code TracedHandler}.
 *
 * <p>Low-cardinality keys: {@code transition} ({@code delivered}, {@code failed},
 * {@code dead_lettered}, {@code save}, or {@code mixed} for a batch of several kinds) and
 * {@code outcome} (the outcome's tag value; for a batch {@code applied} when every element was,
 * otherwise {@code not_applied}; {@code error} when the call threw, with the error on the
 * observation). High-cardinality: the entry id, or the batch size. Counting outcomes per element
 * stays with {@link ObservedOutboxStore}. Thread-safe when the wrapped store is.
 */
public final class ObservedTransitions extends ForwardingOutboxStore {

  /** The observation's name. */
  public static final String NAME = "outbox.transition";

  private final ObservationRegistry observations;

  private ObservedTransitions(OutboxClaimOutcomeStore store, ObservationRegistry observations) {
    super(store);
    this.observations = Arguments.requireNonNull(observations, "observations");
  }

  /**
   * @param store the store whose transitions to observe
   * @param observations the application's observation registry
   * @return the observing store
   */
  public static ObservedTransitions observe(OutboxClaimOutcomeStore store, ObservationRegistry observations) {
    return new ObservedTransitions(store, observations);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    Observation observation = Observation.createNotStarted(NAME, observations)
        .contextualName("outbox " + request.kind().tagValue())
        .lowCardinalityKeyValue(OutboxMetrics.TRANSITION, request.kind().tagValue())
        .highCardinalityKeyValue("outbox.entry_id", claim.entryId().value())
        .start();
    try (Observation.Scope scope = observation.openScope()) {
      ClaimTransitionResult result = delegate().tryTransition(claim, request);
      observation.lowCardinalityKeyValue(OutboxMetrics.OUTCOME, result.outcome().tagValue());
      return result;
    } catch (RuntimeException failure) {
      observation.lowCardinalityKeyValue(OutboxMetrics.OUTCOME, OutboxMetrics.ERROR_OUTCOME).error(failure);
      throw failure;
    } finally {
      observation.stop();
    }
  }

  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    List<ClaimTransition> batch = StoreArguments.checkTransitionAll(transitions);
    long kinds = batch.stream().map(ClaimTransition::kind).distinct().count();
    String transition = kinds == 1 ? batch.get(0).kind().tagValue() : "mixed";
    Observation observation = Observation.createNotStarted(NAME, observations)
        .contextualName("outbox " + transition + " batch")
        .lowCardinalityKeyValue(OutboxMetrics.TRANSITION, transition)
        .highCardinalityKeyValue("outbox.batch_size", Integer.toString(batch.size()))
        .start();
    try (Observation.Scope scope = observation.openScope()) {
      List<ClaimTransitionResult> results = delegate().tryTransitionAll(batch);
      observation.lowCardinalityKeyValue(OutboxMetrics.OUTCOME,
          results.stream().allMatch(ClaimTransitionResult::isApplied) ? "applied" : "not_applied");
      return results;
    } catch (RuntimeException failure) {
      observation.lowCardinalityKeyValue(OutboxMetrics.OUTCOME, OutboxMetrics.ERROR_OUTCOME).error(failure);
      throw failure;
    } finally {
      observation.stop();
    }
  }
}
