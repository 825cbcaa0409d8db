package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.HeaderText;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OutboxEntryMapperTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private static OutboxEntryRecord claimedRow() {
    OutboxEntry entry = OutboxEntry.appended(EntryId.of("entry-7"),
            OutboxMessage.of("t", new byte[] {1}).withHeader("a b", "c&d=e"), NOW, WriteStamp.fresh())
        .claimedBy(WorkerId.of("w"), NOW, Duration.ofSeconds(5), WriteStamp.fresh());
    OutboxEntryRecord row = new OutboxEntryRecord();
    row.id = entry.id().value();
    row.topic = entry.message().topic();
    row.payload = entry.message().payload();
    row.headers = HeaderText.encode(entry.message().headers());
    row.status = entry.status().name();
    row.attempts = entry.attempts();
    row.createdAt = entry.createdAt();
    row.updatedAt = entry.updatedAt();
    row.availableAt = entry.availableAt();
    row.dueAt = entry.dueAt().orElse(null);
    row.claimGeneration = entry.claimGeneration();
    CurrentClaim claim = entry.currentClaim().orElseThrow();
    row.owner = claim.owner().value();
    row.tokenNonce = claim.token().nonce().toString();
    row.claimedAt = claim.claimedAt();
    row.leaseUntil = claim.leaseUntil();
    row.writeStamp = entry.lastWriteStamp().orElseThrow().toString();
    row.revision = entry.revision();
    assertThat(OutboxEntryMapper.toEntry(row)).isEqualTo(entry);
    return row;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"unknown status", "owner without token", "broken headers", "missing lease",
      "bad write stamp"})
  void damagedRowsNameTheEntry(String damage) {
    OutboxEntryRecord row = claimedRow();
    Consumer<OutboxEntryRecord> damageIt = switch (damage) {
      case "unknown status" -> r -> r.status = "SHIPPED";
      case "owner without token" -> r -> r.tokenNonce = null;
      case "broken headers" -> r -> r.headers = "no-equals-sign";
      case "missing lease" -> r -> r.leaseUntil = null;
      default -> r -> r.writeStamp = "not-a-uuid";
    };
    damageIt.accept(row);

    assertThatThrownBy(() -> OutboxEntryMapper.toEntry(row))
        .isInstanceOfSatisfying(UndecodableEntryException.class,
            thrown -> assertThat(thrown.entryId()).isEqualTo(EntryId.of("entry-7")))
        .hasMessageContaining("entry-7");
  }
}
