package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionKind;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Rules T1–T10: every transition against every outcome, and what entry each outcome carries. */
public abstract class TransitionOutcomeRules extends ConformanceTestBase {

  private static EntryStatus statusAfter(TransitionKind kind) {
    return switch (kind) {
      case DELIVERED -> EntryStatus.DELIVERED;
      case FAILED -> EntryStatus.FAILED;
      case DEAD_LETTERED -> EntryStatus.DEAD_LETTERED;
      case SAVE -> EntryStatus.CLAIMED;
    };
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t1_appliedCarriesTheWrittenEntry(TransitionKind kind) {
    Claim claim = appendAndClaim(ALICE);
    clock.advance(Duration.ofSeconds(3));

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectOutcome(Rule.T1, result, ClaimTransitionOutcome.APPLIED);
    RuleCheck.require(Rule.T1, result.isApplied(), () -> "isApplied() must be true for APPLIED");
    OutboxEntry written = result.entry();
    RuleCheck.requireEqual(Rule.T1, "status", statusAfter(kind), written.status());
    RuleCheck.requireEqual(Rule.T1, "revision", claim.snapshot().revision() + 1, written.revision());
    RuleCheck.requireEqual(Rule.T1, "update time", clock.instant(), written.updatedAt());
    RuleCheck.require(Rule.T1, written.lastWriteStamp().isPresent()
            && !written.lastWriteStamp().equals(claim.snapshot().lastWriteStamp()),
        () -> "the write must store its own new write stamp, but the stamp is "
            + written.lastWriteStamp());
    RuleCheck.requireEqual(Rule.T1, "stored entry", Optional.of(written), store.find(claim.entryId()));
    RawEntryState raw = raw(claim.entryId());
    RuleCheck.requireEqual(Rule.T1, "raw revision", written.revision(), raw.revision());
    RuleCheck.requireEqual(Rule.T1, "raw write stamp",
        written.lastWriteStamp().map(Object::toString).orElse(null), raw.writeStamp());
    RuleCheck.requireEqual(Rule.T1, "durable status", Optional.of(statusAfter(kind)), result.durableStatus());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t2_missingWhenRowIsGone(TransitionKind kind) {
    Claim claim = appendAndClaim(ALICE);
    store.delete(claim.entryId());

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectOutcome(Rule.T2, result, ClaimTransitionOutcome.MISSING);
    RuleCheck.requireEqual(Rule.T2, "entry carried", claim.snapshot(), result.entry());
    RuleCheck.requireEqual(Rule.T2, "durable status", Optional.empty(), result.durableStatus());
    RuleCheck.requireEqual(Rule.T2, "raw row count", 0L, fixture().countRaw());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t3_terminalWhenAlreadyFinished(TransitionKind kind) {
    Claim delivered = appendAndClaim(ALICE);
    Claim deadLettered = appendAndClaim(ALICE);
    store.tryMarkClaimDelivered(delivered, DeliveryReceipt.none());
    store.tryMarkClaimDeadLettered(deadLettered, new DeadLetter("poison"));

    for (Claim claim : List.of(delivered, deadLettered)) {
      Unchanged before = capture(claim.entryId());
      OutboxEntry durable = store.find(claim.entryId()).orElseThrow();

      ClaimTransitionResult result = tryTransition(claim, kind);

      expectOutcome(Rule.T3, result, ClaimTransitionOutcome.TERMINAL);
      RuleCheck.requireEqual(Rule.T3, "entry carried", durable, result.entry());
      expectUnchanged(Rule.T3, before);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t4_staleWhenAnotherWorkerReclaimed(TransitionKind kind) {
    Claim stale = appendAndClaim(ALICE);
    clock.advance(LEASE);
    Claim current = claimOne(BOB);
    Unchanged before = capture(current.entryId());

    ClaimTransitionResult result = tryTransition(stale, kind);

    expectOutcome(Rule.T4, result, ClaimTransitionOutcome.STALE_CLAIM);
    RuleCheck.requireEqual(Rule.T4, "entry carried", current.snapshot(), result.entry());
    expectUnchanged(Rule.T4, before);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t5_staleForEveryOldClaimOnceReleased(TransitionKind kind) {
    Claim first = appendAndClaim(ALICE);
    clock.advance(LEASE);
    Claim second = claimOne(BOB);
    store.tryMarkClaimFailed(second, new RetryableFailure(clock.instant().plusSeconds(600), "retry"));
    Unchanged before = capture(first.entryId());
    OutboxEntry released = store.find(first.entryId()).orElseThrow();

    for (Claim old : List.of(first, second)) {
      ClaimTransitionResult result = tryTransition(old, kind);

      expectOutcome(Rule.T5, result, ClaimTransitionOutcome.STALE_CLAIM);
      RuleCheck.requireEqual(Rule.T5, "entry carried", released, result.entry());
      expectUnchanged(Rule.T5, before);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t6_sameWorkersOlderClaimIsStale(TransitionKind kind) {
    Claim older = appendAndClaim(ALICE);
    clock.advance(LEASE);
    Claim newer = claimOne(ALICE);
    Unchanged before = capture(newer.entryId());

    ClaimTransitionResult result = tryTransition(older, kind);

    expectOutcome(Rule.T6, result, ClaimTransitionOutcome.STALE_CLAIM);
    RuleCheck.requireEqual(Rule.T6, "entry carried", newer.snapshot(), result.entry());
    expectUnchanged(Rule.T6, before);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t7_concurrencyLostToAClaimBetweenEvaluationAndWrite(TransitionKind kind) {
    assumeStagedRacesPossible(Rule.T7);
    Claim claim = appendAndClaim(ALICE);
    clock.advance(LEASE);
    Claim[] winner = new Claim[1];
    race.arm(evaluated -> winner[0] = claimOne(BOB));

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectRaceStaged(Rule.T7);
    expectOutcome(Rule.T7, result, ClaimTransitionOutcome.CONCURRENCY_LOST);
    RuleCheck.requireEqual(Rule.T7, "entry carried (the winner's)", winner[0].snapshot(), result.entry());
    RuleCheck.requireEqual(Rule.T7, "stored entry", Optional.of(winner[0].snapshot()),
        store.find(claim.entryId()));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t8_concurrencyLostToATerminalWrite(TransitionKind kind) {
    assumeStagedRacesPossible(Rule.T8);
    Claim claim = appendAndClaim(ALICE);
    OutboxEntry[] winner = new OutboxEntry[1];
    race.arm(evaluated -> winner[0] =
        store.tryMarkClaimDelivered(evaluated, DeliveryReceipt.of("other thread")).entry());

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectRaceStaged(Rule.T8);
    expectOutcome(Rule.T8, result, ClaimTransitionOutcome.CONCURRENCY_LOST);
    RuleCheck.requireEqual(Rule.T8, "entry carried (the terminal winner)", winner[0], result.entry());
    RuleCheck.requireEqual(Rule.T8, "winner status", EntryStatus.DELIVERED, result.entry().status());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t9_missingWhenDeletedBetweenEvaluationAndWrite(TransitionKind kind) {
    assumeStagedRacesPossible(Rule.T9);
    Claim claim = appendAndClaim(ALICE);
    race.arm(evaluated -> store.delete(evaluated.entryId()));

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectRaceStaged(Rule.T9);
    expectOutcome(Rule.T9, result, ClaimTransitionOutcome.MISSING);
    RuleCheck.requireEqual(Rule.T9, "entry carried", claim.snapshot(), result.entry());
    RuleCheck.requireEqual(Rule.T9, "raw row count", 0L, fixture().countRaw());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t14_holdersOwnRenewalBetweenEvaluationAndWriteWins(TransitionKind kind) {
    throughAnOlderClaimObjectAfterTheHoldersRenewal(kind);
    assumeStagedRacesPossible(Rule.T14);
    Claim claim = appendAndClaim(ALICE);
    OutboxEntry[] renewed = new OutboxEntry[1];
    race.arm(evaluated -> renewed[0] =
        store.trySaveClaim(evaluated, LeaseRenewal.withProgress(LEASE, "own renewal")).entry());

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectRaceStaged(Rule.T14);
    expectOutcome(Rule.T14, result, ClaimTransitionOutcome.CONCURRENCY_LOST);
    RuleCheck.requireEqual(Rule.T14, "entry carried (the renewal)", renewed[0], result.entry());
    RuleCheck.requireEqual(Rule.T14, "stored entry", Optional.of(renewed[0]), store.find(claim.entryId()));
  }

  /**
   * The renewal landed before this call evaluated (every store, atomic ones included): the
   * transition through the claim object of before the renewal is APPLIED on top of the renewal, at
   * the next revision, keeping what the renewal wrote; it never lands over it at the same revision.
   */
  private void throughAnOlderClaimObjectAfterTheHoldersRenewal(TransitionKind kind) {
    Claim older = appendAndClaim(ALICE);
    clock.advance(Duration.ofSeconds(5));
    OutboxEntry renewed = store.trySaveClaim(older, LeaseRenewal.withProgress(LEASE, "own renewal")).entry();
    clock.advance(Duration.ofSeconds(5));

    ClaimTransitionResult result = tryTransition(older, kind);

    expectOutcome(Rule.T14, result, ClaimTransitionOutcome.APPLIED);
    OutboxEntry expected = requestFor(kind).applyTo(renewed, clock.instant(), result.entry().lastWriteStamp().orElseThrow());
    RuleCheck.requireEqual(Rule.T14, kind + " through the claim object of before the holder's renewal: the entry"
        + " written on top of the renewal (revision " + (renewed.revision() + 1) + ", the renewal's fields kept)",
        expected, result.entry());
    RuleCheck.requireEqual(Rule.T14, "stored entry", Optional.of(expected), store.find(older.entryId()));
    store.delete(older.entryId());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t15_sameWorkerReclaimingBetweenEvaluationAndWriteWins(TransitionKind kind) {
    assumeStagedRacesPossible(Rule.T15);
    Claim claim = appendAndClaim(ALICE);
    clock.advance(LEASE);
    Claim[] again = new Claim[1];
    race.arm(evaluated -> again[0] = claimOne(ALICE));

    ClaimTransitionResult result = tryTransition(claim, kind);

    expectRaceStaged(Rule.T15);
    expectOutcome(Rule.T15, result, ClaimTransitionOutcome.CONCURRENCY_LOST);
    RuleCheck.requireEqual(Rule.T15, "entry carried (the new claim)", again[0].snapshot(), result.entry());
    RuleCheck.require(Rule.T15, again[0].token().generation() > claim.token().generation(),
        () -> "the re-claim must carry a newer generation than " + claim.token());
    RuleCheck.requireEqual(Rule.T15, "stored entry", Optional.of(again[0].snapshot()), store.find(claim.entryId()));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TransitionKind.class, names = {"DELIVERED", "DEAD_LETTERED"})
  void t10_terminalEntryNeverChangesAgain(TransitionKind finishing) {
    Claim claim = appendAndClaim(ALICE);
    OutboxEntry finished = tryTransition(claim, finishing).entry();
    Unchanged before = capture(claim.entryId());

    for (TransitionKind later : TransitionKind.values()) {
      expectOutcome(Rule.T10, tryTransition(claim, later), ClaimTransitionOutcome.TERMINAL);
    }
    clock.advance(Duration.ofDays(365));
    RuleCheck.requireEqual(Rule.T10, "claims of a terminal entry a year later", List.of(),
        store.claimDue(BOB, 10, LEASE));
    expectUnchanged(Rule.T10, before);
    RuleCheck.requireEqual(Rule.T10, "stored entry", Optional.of(finished), store.find(claim.entryId()));
  }
}
