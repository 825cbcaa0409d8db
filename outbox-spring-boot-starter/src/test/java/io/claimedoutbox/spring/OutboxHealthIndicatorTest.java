package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.drain.DrainStats;
import io.claimedoutbox.micrometer.BacklogReader;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

@DisplayName("Outbox health: the backlog, DOWN past the allowed wait, one store read per refresh")
class OutboxHealthIndicatorTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);

  @Test
  void downOnceTheOldestDueEntryWaitedTooLongAndReadsAreReusedWithinTheRefresh() {
    OutboxHealthIndicator health = new OutboxHealthIndicator(BacklogReader.of(store, Duration.ofSeconds(15), clock),
        "memory", Duration.ofMinutes(5), Optional::empty);
    store.append(OutboxMessage.of("orders", new byte[] {1}));
    assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
    assertThat(health.health(true).getDetails()).containsEntry("pending", 1L);

    store.append(OutboxMessage.of("orders", new byte[] {2}));
    clock.advance(Duration.ofSeconds(14));
    assertThat(health.health(true).getDetails()).as("within the refresh").containsEntry("pending", 1L);
    clock.advance(Duration.ofMinutes(6));
    assertThat(health.health(true).getStatus()).as("6 min 14 s waited, 5 min allowed").isEqualTo(Status.DOWN);
    assertThat(health.health(true).getDetails()).containsEntry("pending", 2L).containsKey("reason");
  }

  @Test
  @DisplayName("DOWN while the drain's claims keep failing, with the last failure; UP again once one works")
  void downWhileTheDrainIsNotClaiming() {
    AtomicReference<DrainStats> stats = new AtomicReference<>(stats(3, "claim at 2030-01-01T00:00:00Z:"
        + " java.lang.OutOfMemoryError: Java heap space"));
    OutboxHealthIndicator health = new OutboxHealthIndicator(BacklogReader.of(store, Duration.ofSeconds(15), clock),
        "memory", null, () -> Optional.of(stats.get()));

    Health down = health.health(true);
    assertThat(down.getStatus()).isEqualTo(Status.DOWN);
    assertThat(String.valueOf(down.getDetails().get("reason"))).contains("last 3 claims failed").contains("OutOfMemoryError");
    assertThat(down.getDetails().get("drain")).asString().contains("claimFailuresInARow=3");

    stats.set(stats(0, "claim at 2030-01-01T00:00:00Z: java.lang.OutOfMemoryError: Java heap space"));
    assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
  }

  private static DrainStats stats(int claimFailuresInARow, String lastFailure) {
    return new DrainStats(10, 10, 0, 0, 0, 0, 0, 0, 0, 3, claimFailuresInARow, 0, 1, Optional.of(lastFailure));
  }
}
