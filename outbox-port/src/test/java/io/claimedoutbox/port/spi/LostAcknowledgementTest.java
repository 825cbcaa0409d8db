package io.claimedoutbox.port.spi;

import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A lost acknowledgement is decided from the entry read again, never guessed")
class LostAcknowledgementTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final RuntimeException CAUSE = new OutboxStoreException("connection reset");

  private final OutboxEntry claimedRow = OutboxEntry.appended(EntryId.generate(), OutboxMessage.of("t", new byte[] {1}),
      NOW, WriteStamp.fresh()).claimedBy(WorkerId.of("alice"), NOW, LEASE, WriteStamp.fresh());
  private final Claim claim = Claim.of(claimedRow);
  private final WriteStamp stamp = WriteStamp.fresh();

  private ClaimTransitionResult resolve(TransitionKind kind, Optional<OutboxEntry> row, boolean atomic) {
    return LostAcknowledgement.resolve(claim, kind, stamp, claimedRow.revision(), atomic, () -> row, CAUSE);
  }

  @Test
  void theWritesOwnStampIsApplied() {
    OutboxEntry landed = DeliveryReceipt.none().applyTo(claimedRow, NOW, stamp);
    ClaimTransitionResult result = resolve(TransitionKind.DELIVERED, Optional.of(landed), true);
    assertThat(result.outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
    assertThat(result.entry()).isEqualTo(landed);
  }

  @Test
  void noRowIsMissing() {
    assertThat(resolve(TransitionKind.DELIVERED, Optional.empty(), true).outcome())
        .isEqualTo(ClaimTransitionOutcome.MISSING);
  }

  @Test
  void anUnchangedRowStillHeldProvesNothingWasWritten() {
    assertThatThrownBy(() -> resolve(TransitionKind.DELIVERED, Optional.of(claimedRow), true))
        .isExactlyInstanceOf(OutboxStoreException.class).hasMessageContaining("nothing was written");
  }

  @Test
  void anotherWriterAtTheNextRevisionWinsAsTheStoreWouldDecide() {
    OutboxEntry otherDelivery = DeliveryReceipt.none().applyTo(claimedRow, NOW, WriteStamp.fresh());
    assertThat(resolve(TransitionKind.FAILED, Optional.of(otherDelivery), true).outcome())
        .as("atomic store").isEqualTo(ClaimTransitionOutcome.TERMINAL);
    assertThat(resolve(TransitionKind.FAILED, Optional.of(otherDelivery), false).outcome())
        .as("store that evaluates first").isEqualTo(ClaimTransitionOutcome.CONCURRENCY_LOST);
  }

  @Test
  void theHoldersOwnLaterSavesLeaveASaveUnknown() {
    OutboxEntry saved = LeaseRenewal.of(LEASE).applyTo(claimedRow, NOW, WriteStamp.fresh());
    OutboxEntry savedAgain = LeaseRenewal.of(LEASE).applyTo(saved, NOW, WriteStamp.fresh());
    assertThatThrownBy(() -> resolve(TransitionKind.SAVE, Optional.of(savedAgain), true))
        .isInstanceOfSatisfying(TransitionOutcomeUnknownException.class,
            unknown -> assertThat(unknown.writeStamp()).isEqualTo(stamp));
    assertThatThrownBy(() -> resolve(TransitionKind.DELIVERED, Optional.of(savedAgain), true))
        .as("a delivery that landed would have released the entry")
        .isExactlyInstanceOf(OutboxStoreException.class);
  }

  @Test
  void anUnreadableRowIsUnknownCarryingTheStamp() {
    assertThatThrownBy(() -> LostAcknowledgement.resolve(claim, TransitionKind.DELIVERED, stamp, claimedRow.revision(),
        true, () -> {
          throw new OutboxStoreException("still down");
        }, new OutboxStoreException("connection reset")))
        .isInstanceOfSatisfying(TransitionOutcomeUnknownException.class,
            unknown -> assertThat(unknown.writeStamp()).isEqualTo(stamp));
  }
}
