package io.claimedoutbox.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.EntryStorage;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import com.example.outbox.mapstore.ConcurrentMapEntryStorage;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.StorageBackedOutboxStore;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Transitions as observations: one per call, the outcome as a low-cardinality key")
class OutboxStoreObservationsTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final OutboxClaimOutcomeStore store =
      StorageBackedOutboxStore.over(new ConcurrentMapEntryStorage(new ConcurrentHashMap<>()), clock);
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
    store.listen(OutboxStoreObservations.of(registry));
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    Claim claim = store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30)).get(0);

    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());
    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(stopped).hasSize(2).allMatch(context -> context.getName().equals(OutboxMetrics.TRANSITION_DURATION));
    assertThat(lowCardinality(stopped.get(0))).containsEntry("transition", "delivered").containsEntry("outcome", "applied");
    assertThat(lowCardinality(stopped.get(1))).containsEntry("outcome", "terminal");
    assertThat(stopped.get(0).getHighCardinalityKeyValue("outbox.entry_id").getValue()).isEqualTo(claim.entryId().value());
  }

  @Test
  void aBatchIsOneObservation() {
    store.listen(OutboxStoreObservations.of(registry));
    store.appendAll(List.of(OutboxMessage.of("orders", new byte[] {1}), OutboxMessage.of("orders", new byte[] {2})));
    List<Claim> claims = store.claimDue(WorkerId.of("w"), 2, Duration.ofSeconds(30));

    store.tryTransitionAll(claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList());

    assertThat(stopped).hasSize(1);
    assertThat(lowCardinality(stopped.get(0))).containsEntry("transition", "delivered").containsEntry("outcome", "applied");
    assertThat(stopped.get(0).getHighCardinalityKeyValue("outbox.batch_size").getValue()).isEqualTo("2");
  }

  @Test
  @DisplayName("with a meter handler, the observation is the call's one timer, beside the meter listener's counters")
  void withAMeterHandlerEachCallIsTimedOnce() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
    store.listen(OutboxStoreObservations.of(registry));
    store.listen(OutboxStoreMeters.builder(meters).timedByObservation().build());
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    Claim claim = store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30)).get(0);

    store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(meters.find(OutboxMetrics.TRANSITION_DURATION).timers()).singleElement()
        .satisfies(timer -> assertThat(timer.count()).isEqualTo(1));
    assertThat(meters.find(OutboxMetrics.TRANSITION_ATTEMPTS).counter().count()).isEqualTo(1);
  }

  @Test
  void aCallThatThrowsEndsItsObservationWithTheError() {
    OutboxClaimOutcomeStore failing = StorageBackedOutboxStore.over(new FailingStorage(), clock);
    failing.listen(OutboxStoreObservations.of(registry));
    Claim claim = Claim.of(OutboxEntry.appended(EntryId.of("e-1"), OutboxMessage.of("orders", new byte[] {1}),
        clock.instant(), WriteStamp.fresh()).claimedBy(WorkerId.of("w"), clock.instant(), Duration.ofSeconds(30),
        WriteStamp.fresh()));

    assertThatThrownBy(() -> failing.tryMarkClaimDelivered(claim, DeliveryReceipt.none()))
        .isInstanceOf(OutboxStoreException.class);
    assertThat(stopped).singleElement().satisfies(context -> {
      assertThat(lowCardinality(context)).containsEntry("outcome", "error");
      assertThat(context.getError()).isInstanceOf(OutboxStoreException.class);
    });
  }

  /** Storage whose every read fails, as a database that is down. */
  private static final class FailingStorage implements EntryStorage {
    @Override
    public void insertAll(List<OutboxEntry> entries) {
      throw new OutboxStoreException("down");
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      throw new OutboxStoreException("down");
    }

    @Override
    public boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
      throw new OutboxStoreException("down");
    }

    @Override
    public boolean remove(EntryId id) {
      throw new OutboxStoreException("down");
    }

    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int limit) {
      throw new OutboxStoreException("down");
    }
  }
}
