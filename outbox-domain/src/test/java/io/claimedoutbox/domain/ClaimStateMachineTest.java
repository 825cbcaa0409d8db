package io.claimedoutbox.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The claim state machine and the claim fence")
class ClaimStateMachineTest {

  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00.123456789Z");
  private static final WorkerId ALICE = WorkerId.of("alice");
  private static final WorkerId BOB = WorkerId.of("bob");
  private static final Duration LEASE = Duration.ofSeconds(30);

  private static OutboxEntry pending() {
    return OutboxEntry.appended(EntryId.of("e1"), OutboxMessage.of("t", new byte[] {1}), T0, WriteStamp.fresh());
  }

  private static Claim claimBy(OutboxEntry entry, WorkerId worker, Instant at) {
    return Claim.of(entry.claimedBy(worker, at, LEASE, WriteStamp.fresh()));
  }

  @Test
  void appendedEntriesArePendingAtRevisionOneWithMillisecondInstants() {
    OutboxEntry entry = pending();
    assertThat(entry.status()).isEqualTo(EntryStatus.PENDING);
    assertThat(entry.revision()).isEqualTo(1);
    assertThat(entry.createdAt()).isEqualTo(Instant.parse("2030-01-01T00:00:00.123Z"));
    assertThat(entry.dueAt()).contains(entry.createdAt());
  }

  @Test
  void claimingMintsTheNextGenerationAndCountsAnAttempt() {
    Claim first = claimBy(pending(), ALICE, T0);
    Claim second = claimBy(first.snapshot(), BOB, T0.plus(LEASE));

    assertThat(first.token().generation()).isEqualTo(1);
    assertThat(second.token().generation()).isEqualTo(2);
    assertThat(second.attempt()).isEqualTo(2);
    assertThat(second.snapshot().revision()).isEqualTo(3);
    assertThat(second.leaseUntil()).isEqualTo(Instant.parse("2030-01-01T00:01:00.123Z"));
  }

  @Test
  void aLiveLeaseCannotBeClaimed() {
    Claim held = claimBy(pending(), ALICE, T0);
    assertThatThrownBy(() -> held.snapshot().claimedBy(BOB, T0.plusSeconds(29), LEASE, WriteStamp.fresh()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not due");
  }

  @Test
  void transitionsApplyOnlyToClaimedEntries() {
    assertThatThrownBy(() -> DeliveryReceipt.none().applyTo(pending(), T0, WriteStamp.fresh()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("PENDING");
  }

  @Test
  void failedReleasesTheClaimAndSchedulesTheRetry() {
    Claim claim = claimBy(pending(), ALICE, T0);
    OutboxEntry failed = new RetryableFailure(T0.plusSeconds(90), "x".repeat(5000))
        .applyTo(claim.snapshot(), T0.plusSeconds(1), WriteStamp.fresh());

    assertThat(failed.status()).isEqualTo(EntryStatus.FAILED);
    assertThat(failed.currentClaim()).isEmpty();
    assertThat(failed.dueAt()).contains(Instant.parse("2030-01-01T00:01:30.123Z"));
    assertThat(failed.lastError().orElseThrow()).hasSize(OutboxEntry.MAX_NOTE_LENGTH);
    assertThat(failed.claimGeneration()).isEqualTo(1);
  }

  @Test
  void saveKeepsTheTokenAndMovesTheLease() {
    Claim claim = claimBy(pending(), ALICE, T0);
    OutboxEntry saved = LeaseRenewal.withProgress(Duration.ofMinutes(5), "p")
        .applyTo(claim.snapshot(), T0.plusSeconds(10), WriteStamp.fresh());

    Claim renewed = Claim.of(saved);
    assertThat(renewed.token()).isEqualTo(claim.token());
    assertThat(renewed.leaseUntil()).isEqualTo(Instant.parse("2030-01-01T00:05:10.123Z"));
    assertThat(saved.progress()).contains("p");
    assertThat(saved.revision()).isEqualTo(claim.snapshot().revision() + 1);
  }

  @Test
  void terminalEntriesHaveNoDueTime() {
    Claim claim = claimBy(pending(), ALICE, T0);
    OutboxEntry delivered = DeliveryReceipt.of("r").applyTo(claim.snapshot(), T0, WriteStamp.fresh());
    assertThat(delivered.dueAt()).isEmpty();
    assertThat(delivered.isDue(T0.plus(Duration.ofDays(9999)))).isFalse();
  }

  @Test
  void fenceDecidesMissingThenTerminalThenStaleInThatOrder() {
    Claim claim = claimBy(pending(), ALICE, T0);
    OutboxEntry delivered = DeliveryReceipt.none().applyTo(claim.snapshot(), T0, WriteStamp.fresh());
    OutboxEntry released = new RetryableFailure(T0, "e").applyTo(claim.snapshot(), T0, WriteStamp.fresh());
    Claim newer = claimBy(claim.snapshot(), BOB, T0.plus(LEASE));

    assertThat(ClaimFence.decideBeforeWrite(claim, Optional.empty()).orElseThrow())
        .isEqualTo(ClaimTransitionResult.missing(claim));
    assertThat(ClaimFence.decideBeforeWrite(claim, Optional.of(delivered)).orElseThrow().outcome())
        .isEqualTo(ClaimTransitionOutcome.TERMINAL);
    assertThat(ClaimFence.decideBeforeWrite(claim, Optional.of(released)).orElseThrow().outcome())
        .as("a released row, whose generation still equals the claim's, is stale")
        .isEqualTo(ClaimTransitionOutcome.STALE_CLAIM);
    assertThat(ClaimFence.decideBeforeWrite(claim, Optional.of(newer.snapshot())).orElseThrow().outcome())
        .isEqualTo(ClaimTransitionOutcome.STALE_CLAIM);
    assertThat(ClaimFence.decideBeforeWrite(claim, Optional.of(claim.snapshot()))).isEmpty();
  }

  @Test
  void aLostWriteIsConcurrencyLostOrMissing() {
    Claim claim = claimBy(pending(), ALICE, T0);
    OutboxEntry winner = DeliveryReceipt.none().applyTo(claim.snapshot(), T0, WriteStamp.fresh());

    assertThat(ClaimFence.afterLostWrite(claim, Optional.of(winner)))
        .isEqualTo(ClaimTransitionResult.concurrencyLost(winner));
    assertThat(ClaimFence.afterLostWrite(claim, Optional.empty()))
        .isEqualTo(ClaimTransitionResult.missing(claim));
    assertThat(ClaimTransitionResult.missing(claim).durableStatus()).isEmpty();
  }

  @Test
  void aClaimMustAgreeWithItsSnapshot() {
    Claim claim = claimBy(pending(), ALICE, T0);
    assertThatThrownBy(() -> new Claim(EntryId.of("other"), ALICE, claim.token(), claim.claimedAt(),
            claim.leaseUntil(), claim.attempt(), claim.snapshot()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("snapshot");
    assertThatThrownBy(() -> Claim.of(pending()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not CLAIMED");
  }

  @Test
  void entriesRejectContradictoryFields() {
    OutboxEntryBuilder claimedWithoutClaim = pending().toBuilder().status(EntryStatus.CLAIMED);
    assertThatThrownBy(claimedWithoutClaim::build).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("current claim");
    assertThatThrownBy(() -> pending().toBuilder().revision(0).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("revision");
  }
}
