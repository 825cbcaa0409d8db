package io.claimedoutbox.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The scripts answer failures as structured replies ({@code UNDECODABLE id problem},
 * {@code DUPLICATE id}), which the typed calls turn into the port's exceptions, with nothing written.
 */
@DisplayName("Redis adapter: scripts report damaged rows and duplicate ids as structured replies")
class ScriptRepliesTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private final RedisTestKit kit = RedisFixtures.of(RedisTopology.STANDALONE);

  @BeforeEach
  void clean() {
    kit.fixture().clean();
  }

  @Test
  @DisplayName("an append batch meeting an id stored by another write fails naming it, and writes none of the batch")
  void duplicateIdFailsTheWholeAppend() {
    OutboxEntry stored = kit.storeBuilder().build().append(OutboxMessage.of("t", new byte[] {1}));
    OutboxEntry fresh = OutboxEntry.appended(kit.keys().newId("fresh", 0), OutboxMessage.of("t", new byte[] {2}), NOW,
        WriteStamp.fresh());
    OutboxEntry sameIdOtherWrite = OutboxEntry.appended(stored.id(), OutboxMessage.of("t", new byte[] {3}), NOW,
        WriteStamp.fresh());
    ScriptCall append = AppendScript.call(kit.keys(), 0, List.of(fresh, sameIdOtherWrite));

    assertThatThrownBy(() -> ScriptCall.body(append.run(kit.client()), "append"))
        .isInstanceOf(OutboxStoreException.class).hasMessageContaining(stored.id().value());
    assertThat(kit.fixture().readRaw(fresh.id())).as("the batch's other entry").isEmpty();
    assertThat(kit.fixture().countRaw()).isEqualTo(1);
  }

  @Test
  @DisplayName("a transition batch meeting a damaged row fails naming it, and writes none of the batch")
  void damagedRowFailsTheWholeTransitionBatch() {
    RedisOutboxStore store = kit.storeBuilder().build();
    store.appendAll(List.of(OutboxMessage.of("a", new byte[] {1}), OutboxMessage.of("b", new byte[] {2})));
    List<Claim> claims = store.claimDue(WorkerId.of("w"), 2, Duration.ofMinutes(1));
    EntryId damaged = claims.get(1).entryId();
    kit.client().hdel(kit.keys().entry(0, damaged), EntryFields.REVISION);
    List<ConditionalWrite> batch = claims.stream().map(claim -> new ConditionalWrite(claim, TransitionKind.DELIVERED,
        claim.snapshot(), DeliveryReceipt.none().applyTo(claim.snapshot(), NOW, WriteStamp.fresh()))).toList();
    ScriptCall transition = ConditionalWriteScript.call(kit.keys(), 0, batch);

    assertThatThrownBy(() -> ConditionalWriteScript.answers(transition.run(kit.client()), "deliver"))
        .isInstanceOfSatisfying(UndecodableEntryException.class,
            thrown -> assertThat(thrown.entryId()).isEqualTo(damaged));
    assertThat(kit.fixture().readRaw(claims.get(0).entryId()).orElseThrow().status())
        .as("the batch's sound entry").isEqualTo("CLAIMED");
  }
}
