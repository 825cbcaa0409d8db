package io.claimedoutbox.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Redis adapter: the heads a releasing write read are used once, and only while fresh")
class KeyHeadHintsTest {

  private final AtomicLong nanos = new AtomicLong();
  private final KeyHeadHints hints = new KeyHeadHints(nanos::get);
  private final OutboxEntry head = OutboxEntry.appended(EntryId.of("e-1.0"),
      OutboxMessage.of("t", new byte[] {7}).withOrderingKey("k"), Instant.parse("2030-01-01T00:00:00Z"),
      WriteStamp.fresh());

  @Test
  @DisplayName("a hint is taken once, decoded as stored")
  void takenOnce() {
    hints.offer("k", head.id(), EntryFields.encode(head));

    assertThat(hints.take("k")).contains(head);
    assertThat(hints.take("k")).as("taken again").isEmpty();
    assertThat(hints.take("other")).as("a key never released").isEmpty();
  }

  @Test
  @DisplayName("a hint older than its age limit is dropped, so the key is read afresh")
  void oldHintIsDropped() {
    hints.offer("k", head.id(), EntryFields.encode(head));
    nanos.addAndGet(KeyHeadHints.MAX_AGE_NANOS);
    hints.offer("fresh", head.id(), EntryFields.encode(head));
    nanos.incrementAndGet();

    assertThat(hints.take("k")).as("past the limit").isEmpty();
    assertThat(hints.take("fresh")).as("within it").contains(head);
  }

  @Test
  @DisplayName("hints nobody takes are dropped past a total of fields, so a program that never claims by key holds little")
  void untakenHintsAreBounded() {
    OutboxEntry large = OutboxEntry.appended(EntryId.of("e-2.0"),
        OutboxMessage.of("t", new byte[64 * 1024]).withOrderingKey("k"), Instant.parse("2030-01-01T00:00:00Z"),
        WriteStamp.fresh());
    int fitting = (int) (KeyHeadHints.MOST_BYTES / (64 * 1024)) - 1;
    for (int i = 0; i <= fitting; i++) {
      hints.offer("key-" + i, large.id(), EntryFields.encode(large));
    }

    assertThat(hints.take("key-0")).as("offered first, dropped with the rest past the total").isEmpty();
    assertThat(hints.take("key-" + fitting)).as("offered last").isPresent();
  }
}
