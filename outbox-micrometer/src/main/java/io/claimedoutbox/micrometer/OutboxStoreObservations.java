package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;

/**
 * Makes every transition call of a store a Micrometer {@link Observation}, as a
 * {@linkplain OutboxClaimOutcomeStore#listen listener} of the store, so whatever handlers the
 * application registered see it: a tracing bridge makes it a span (a child of the delivery span
 * when the drain runs under {@code TracedHandler}), a meter handler the call's one timer. Its name is
 * {@link OutboxMeterNames#transitionDuration} ({@value OutboxMetrics#TRANSITION_DURATION} by default),
 * so that timer is the one {@link OutboxStoreMeters} would record; register the meters with
 * {@link OutboxStoreMeters.Builder#timedByObservation} beside it.
 *
 * <p>Low-cardinality keys: {@code transition} ({@code delivered}, {@code failed},
 * {@code dead_lettered}, {@code save}, or {@code mixed} for a batch of several kinds) and
 * {@code outcome} (a single call's outcome; for a batch {@code applied} when every element was,
 * otherwise {@code not_applied}; {@code error} when the call threw, with the error on the
 * observation). High-cardinality: the entry id of a single call, or the batch size. The
 * observation's scope is open while the store works. Thread-safe.
 */
public final class OutboxStoreObservations implements OutboxStoreListener {

  private final ObservationRegistry observations;
  private final String name;

  private OutboxStoreObservations(ObservationRegistry observations, String name) {
    this.observations = observations;
    this.name = name;
  }

  /**
   * @param observations the application's observation registry
   * @return the listener, naming observations {@value OutboxMetrics#TRANSITION_DURATION}
   */
  public static OutboxStoreObservations of(ObservationRegistry observations) {
    return of(observations, OutboxMeterNames.defaults());
  }

  /**
   * @param observations the application's observation registry
   * @param names whose {@link OutboxMeterNames#transitionDuration} names the observations
   * @return the listener
   */
  public static OutboxStoreObservations of(ObservationRegistry observations, OutboxMeterNames names) {
    return new OutboxStoreObservations(Arguments.requireNonNull(observations, "observations"),
        Arguments.requireNonNull(names, "names").transitionDuration());
  }

  @Override
  public CallListener starting(StoreCall call) {
    if (call.kind() != StoreCall.Kind.TRANSITION || observations.isNoop()) {
      return CallListener.NONE;
    }
    List<ClaimTransition> batch = call.transitions();
    String transition = TransitionTags.kindOf(batch);
    Observation observation = Observation.createNotStarted(name, observations)
        .contextualName("outbox " + transition + (batch.size() > 1 ? " batch" : ""))
        .lowCardinalityKeyValue(OutboxMetrics.TRANSITION, transition);
    if (batch.size() == 1) {
      observation.highCardinalityKeyValue("outbox.entry_id", batch.get(0).entryId().value());
    } else {
      observation.highCardinalityKeyValue("outbox.batch_size", Integer.toString(batch.size()));
    }
    observation.start();
    Observation.Scope scope = observation.openScope();
    return new CallListener() {
      @Override
      public void transitioned(List<ClaimTransitionResult> results, long nanos) {
        observation.lowCardinalityKeyValue(OutboxMetrics.OUTCOME, TransitionTags.outcomeOf(results));
        end();
      }

      @Override
      public void failed(RuntimeException failure, long nanos) {
        observation.lowCardinalityKeyValue(OutboxMetrics.OUTCOME, OutboxMetrics.ERROR_OUTCOME).error(failure);
        end();
      }

      private void end() {
        scope.close();
        observation.stop();
      }
    };
  }
}
