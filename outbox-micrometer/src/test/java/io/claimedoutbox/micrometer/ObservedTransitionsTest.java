package io.claimedoutbox.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Transitions as observations: the outcome as a low-cardinality key")
class ObservedTransitionsTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();
  private final ObservationRegistry registry = ObservationRegistry.create();

  {
    registry.observationConfig().observationHandler(new ObservationHandler<>() {
      @Override
      public void onStop(Observation.Context context) {
        stopped.add(context);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return true;
      }
    });
  }

  private static Map<String, String> lowCardinality(Observation.Context context) {
    return context.getLowCardinalityKeyValues().stream().collect(Collectors.toMap(KeyValue::getKey, KeyValue::getValue));
  }

  @Test
  void eachTransitionIsAnObservationWithItsOutcome() {
    ObservedTransitions store = ObservedTransitions.observe(backing, registry);
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    Claim claim = store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30)).get(0);

    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());
    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(stopped).hasSize(2).allMatch(context -> context.getName().equals(ObservedTransitions.NAME));
    assertThat(lowCardinality(stopped.get(0))).containsEntry("transition", "delivered").containsEntry("outcome", "applied");
    assertThat(lowCardinality(stopped.get(1))).containsEntry("outcome", "terminal");
    assertThat(stopped.get(0).getHighCardinalityKeyValue("outbox.entry_id").getValue()).isEqualTo(claim.entryId().value());
  }

  @Test
  void aBatchIsOneObservation() {
    ObservedTransitions store = ObservedTransitions.observe(backing, registry);
    store.appendAll(List.of(OutboxMessage.of("orders", new byte[] {1}), OutboxMessage.of("orders", new byte[] {2})));
    List<Claim> claims = store.claimDue(WorkerId.of("w"), 2, Duration.ofSeconds(30));

    store.tryTransitionAll(claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList());

    assertThat(stopped).hasSize(1);
    assertThat(lowCardinality(stopped.get(0))).containsEntry("transition", "delivered").containsEntry("outcome", "applied");
  }
}
