package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.ClaimToken;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.HeaderText;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.DateTimeException;
import java.util.UUID;

/**
 * Maps rows to domain entries; a row that does not decode is reported by its id. (Writes go through
 * {@link EntryRows}, which binds entries to the store's own statements.)
 */
final class OutboxEntryMapper {

  private OutboxEntryMapper() {}

  static OutboxEntry toEntry(OutboxEntryRecord row) {
    try {
      return OutboxEntry.builder()
          .id(EntryId.of(row.id))
          .message(OutboxMessage.restored(row.topic, row.orderingKey, row.payload,
              HeaderText.decode(required(row.headers, "headers"))))
          .status(EntryStatus.valueOf(required(row.status, "status")))
          .attempts(row.attempts)
          .createdAt(row.createdAt)
          .updatedAt(row.updatedAt)
          .availableAt(row.availableAt)
          .claimGeneration(row.claimGeneration)
          .currentClaim(currentClaim(row))
          .lastError(row.lastError)
          .progress(row.progress)
          .deliveryReceipt(row.deliveryReceipt)
          .revision(row.revision)
          .lastWriteStamp(row.writeStamp == null ? null : WriteStamp.parse(row.writeStamp))
          .build();
    } catch (IllegalArgumentException | NullPointerException | DateTimeException problem) {
      throw new UndecodableEntryException(EntryId.of(row.id), problem.getMessage(), problem);
    }
  }

  private static CurrentClaim currentClaim(OutboxEntryRecord row) {
    if (row.owner == null && row.tokenNonce == null) {
      return null;
    }
    return new CurrentClaim(WorkerId.of(required(row.owner, "owner")),
        new ClaimToken(UUID.fromString(required(row.tokenNonce, "token_nonce")), row.claimGeneration),
        row.claimedAt, row.leaseUntil);
  }

  private static <T> T required(T value, String column) {
    if (value == null) {
      throw new IllegalArgumentException("column " + column + " is null");
    }
    return value;
  }
}
