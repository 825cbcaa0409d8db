package io.claimedoutbox.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A drain's own counts reach the registry, tagged with its worker, under names that can change")
class DrainMetersTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double meter(String name, String... tags) {
    return registry.find(name).tag(OutboxMetrics.DRAIN_WORKER, "drain-1").tags(tags).meters().stream()
        .mapToDouble(meter -> meter.measure().iterator().next().getValue()).sum();
  }

  @Test
  void handledEntriesAreCountedAndNothingIsHeldAfterTheDrainStops() throws InterruptedException {
    CountDownLatch handled = new CountDownLatch(2);
    OutboxDrain drain = OutboxDrain.builder(store, message -> handled.countDown()).workerId(WorkerId.of("drain-1"))
        .clock(clock).build();
    DrainMeters.bind(drain, registry);
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    store.append(OutboxMessage.of("orders", new byte[] {2}));

    assertThat(drain.pollOnce()).isEqualTo(2);
    assertThat(handled.await(10, TimeUnit.SECONDS)).as("both handlers ran").isTrue();
    assertThat(drain.stop(Duration.ofSeconds(10))).isTrue();

    assertThat(meter("outbox.drain.claimed")).isEqualTo(2);
    assertThat(meter("outbox.drain.handled", "result", "succeeded")).isEqualTo(2);
    assertThat(meter("outbox.drain.handled", "result", "failed")).isZero();
    assertThat(meter("outbox.drain.failures", "part", "claim")).isZero();
    assertThat(meter("outbox.drain.in_flight")).isZero();
    assertThat(meter("outbox.drain.claim_failures_in_a_row")).isZero();
  }

  @Test
  void aPrefixMovesEveryMeter() {
    OutboxDrain drain = OutboxDrain.builder(store, message -> { }).workerId(WorkerId.of("drain-1")).clock(clock).build();

    DrainMeters.bind(drain, registry, OutboxMeterNames.withPrefix("orders.outbox"));

    assertThat(registry.getMeters()).isNotEmpty()
        .allSatisfy(meter -> assertThat(meter.getId().getName()).startsWith("orders.outbox.drain."));
  }

  @Test
  void badNamesAreRejectedNamingTheArgument() {
    assertThatThrownBy(() -> OutboxMeterNames.withPrefix(" ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix");
    assertThatThrownBy(() -> OutboxMeterNames.withPrefix("orders.")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("prefix");
    OutboxMeterNames d = OutboxMeterNames.defaults();
    assertThatThrownBy(() -> new OutboxMeterNames(d.transitionAttempts(), d.transitionDuration(), d.transitionErrors(),
        null, d.claimDuration(), d.appendedEntries(), d.appendDuration(), d.entries(), d.oldestDueAge(), d.drain()))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("claimedEntries");
    assertThatThrownBy(() -> DrainMeters.bind(null, registry)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("drain");
  }

  @Test
  @DisplayName("a prefix moves the store's meters too")
  void aPrefixMovesTheStoresMeters() {
    store.listen(OutboxStoreMeters.builder(registry).names(OutboxMeterNames.withPrefix("orders.outbox")).build());
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30));

    assertThat(registry.getMeters()).isNotEmpty()
        .allSatisfy(meter -> assertThat(meter.getId().getName()).startsWith("orders.outbox."));
    assertThat(registry.find("orders.outbox.claimed_entries").counter().count()).isEqualTo(1);
  }
}
