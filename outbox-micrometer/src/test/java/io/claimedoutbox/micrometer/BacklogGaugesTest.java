package io.claimedoutbox.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Backlog gauges: entries per status and the oldest due age, read at most once per refresh")
class BacklogGaugesTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private double gauge(String name, String status) {
    var search = registry.find(name);
    return (status == null ? search : search.tag(OutboxMetrics.TAG_STATUS, status)).gauge().value();
  }

  @Test
  void observingAStoreWithOperationsExportsTheBacklog() {
    OutboxStoreMeters.observe(store, registry);
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    store.append(OutboxMessage.of("orders", new byte[] {2}));
    store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30));
    clock.advance(Duration.ofSeconds(9));

    assertThat(gauge(OutboxMetrics.ENTRIES, "pending")).isEqualTo(1.0);
    assertThat(gauge(OutboxMetrics.ENTRIES, "claimed")).isEqualTo(1.0);
    assertThat(gauge(OutboxMetrics.ENTRIES, "delivered")).isEqualTo(0.0);
    assertThat(gauge(OutboxMetrics.OLDEST_DUE_AGE, null)).isEqualTo(9.0);
  }

  @Test
  void theGaugesOutliveEveryOtherReferenceToThem() throws Exception {
    BacklogGauges.register(store, registry, Duration.ZERO, clock);
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    WeakReference<Object> probe = new WeakReference<>(new Object());
    while (probe.get() != null) {
      System.gc();
      Thread.onSpinWait();
    }
    assertThat(gauge(OutboxMetrics.ENTRIES, "pending")).as("after a garbage collection").isEqualTo(1.0);
  }

  @Test
  void theStoreIsReadAtMostOncePerRefresh() {
    BacklogGauges.register(store, registry, Duration.ofSeconds(15), clock);
    assertThat(gauge(OutboxMetrics.ENTRIES, "pending")).isEqualTo(0.0);
    store.append(OutboxMessage.of("orders", new byte[] {1}));

    clock.advance(Duration.ofSeconds(14));
    assertThat(gauge(OutboxMetrics.ENTRIES, "pending")).as("within the refresh interval").isEqualTo(0.0);
    clock.advance(Duration.ofSeconds(1));
    assertThat(gauge(OutboxMetrics.ENTRIES, "pending")).as("once it ran out").isEqualTo(1.0);
    assertThat(gauge(OutboxMetrics.OLDEST_DUE_AGE, null)).as("appended 15 s ago").isEqualTo(15.0);
  }
}
