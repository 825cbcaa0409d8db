package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Rule K1: the compatibility methods are the {@code try…} path minus the outcome. */
public abstract class CompatibilityRules extends ConformanceTestBase {

  private OutboxEntry compat(Claim claim, TransitionKind kind, String situation) {
    try {
      return compatTransition(claim, kind);
    } catch (RuntimeException thrown) {
      throw new org.opentest4j.AssertionFailedError(Rule.K1.violation(
          "the compatibility method for " + kind + " threw when " + situation + ": " + thrown), thrown);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void k1_compatibilityMethodsReturnTheTryEntry(TransitionKind kind) {
    Claim applied = appendAndClaim(ALICE);
    OutboxEntry written = compat(applied, kind, "applied");
    RuleCheck.requireEqual(Rule.K1, "entry returned when applied (the written entry)",
        store.find(applied.entryId()), Optional.of(written));
    RuleCheck.requireEqual(Rule.K1, "revision returned when applied",
        applied.snapshot().revision() + 1, written.revision());
    if (written.status() == io.claimedoutbox.domain.EntryStatus.CLAIMED) {
      store.tryMarkClaimDelivered(Claim.of(written), DeliveryReceipt.none());
    }

    Claim stale = appendAndClaim(ALICE);
    clock.advance(LEASE);
    claimOne(BOB);
    expectSameAsTry(stale, kind, "the claim is stale");

    Claim terminal = appendAndClaim(ALICE);
    store.tryMarkClaimDelivered(terminal, DeliveryReceipt.none());
    expectSameAsTry(terminal, kind, "the entry is terminal");

    Claim missing = appendAndClaim(ALICE);
    store.delete(missing.entryId());
    expectSameAsTry(missing, kind, "the row is missing");
  }

  private void expectSameAsTry(Claim claim, TransitionKind kind, String situation) {
    ClaimTransitionResult viaTry = tryTransition(claim, kind);
    OutboxEntry viaCompat = compat(claim, kind, situation);
    RuleCheck.requireEqual(Rule.K1, "entry returned when " + situation + " (try returned "
        + viaTry.outcome() + ")", viaTry.entry(), viaCompat);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void k1_compatibilityMethodsReturnTheWinnerOfALostRace(TransitionKind kind) {
    assumeStagedRacesPossible(Rule.K1);
    Claim claim = appendAndClaim(ALICE);
    OutboxEntry[] winner = new OutboxEntry[1];
    race.arm(evaluated -> winner[0] =
        store.tryMarkClaimDelivered(evaluated, DeliveryReceipt.of("winner")).entry());

    OutboxEntry returned = compat(claim, kind, "another writer won the race");

    expectRaceStaged(Rule.K1);
    RuleCheck.requireEqual(Rule.K1, "entry returned when the race was lost (the winner)", winner[0], returned);
  }
}
