package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Retention: finished entries older than the setting are purged in batches; nothing else")
class OutboxRetentionTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);

  private void finish(int delivered, int deadLettered) {
    store.appendAll(IntStream.range(0, delivered + deadLettered)
        .mapToObj(i -> OutboxMessage.of("orders", new byte[] {(byte) i})).toList());
    List<Claim> claims = store.claimDue(WorkerId.of("w"), delivered + deadLettered, Duration.ofSeconds(30));
    for (int i = 0; i < claims.size(); i++) {
      if (i < delivered) {
        store.tryMarkClaimDelivered(claims.get(i), DeliveryReceipt.none());
      } else {
        store.tryMarkClaimDeadLettered(claims.get(i), new DeadLetter("poison"));
      }
    }
  }

  @Test
  void aRunPurgesEveryOldFinishedEntryBatchByBatchAndKeepsTheRest() {
    finish(25, 5);
    clock.advance(Duration.ofDays(2));
    finish(3, 1);
    OutboxEntry pending = store.append(OutboxMessage.of("orders", new byte[] {9}));
    OutboxRetention retention = OutboxRetention.builder(store).keepFinishedFor(Duration.ofDays(1)).batchSize(7).build();

    assertThat(retention.runOnce()).as("deleted: the 30 entries finished two days ago").isEqualTo(30);
    assertThat(store.countByStatus().of(EntryStatus.DELIVERED)).isEqualTo(3);
    assertThat(store.countByStatus().of(EntryStatus.DEAD_LETTERED)).isEqualTo(1);
    assertThat(store.find(pending.id())).isPresent();
    assertThat(retention.runOnce()).as("a second run right after").isZero();
    assertThat(retention.purged()).isEqualTo(30);
  }

  @Test
  void badSettingsAreRejectedNamingThem() {
    assertThatThrownBy(() -> OutboxRetention.builder(store).keepFinishedFor(Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepFinishedFor");
    assertThatThrownBy(() -> OutboxRetention.builder(store).batchSize(0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("batchSize");
    assertThatThrownBy(() -> OutboxRetention.builder(store).every(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("every");
    assertThatThrownBy(() -> OutboxRetention.builder(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("operations");
  }
}
