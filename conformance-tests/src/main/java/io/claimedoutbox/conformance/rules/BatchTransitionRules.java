package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Rules T11–T13: {@code tryTransitionAll}, many (claim, transition) pairs in one call. */
public abstract class BatchTransitionRules extends ConformanceTestBase {

  @Test
  void t11_mixedBatchAnswersEachElementAsASingleCallWould() {
    Claim applied = appendAndClaim(ALICE);
    Claim missing = appendAndClaim(ALICE);
    Claim terminal = appendAndClaim(ALICE);
    Claim stale = appendAndClaim(ALICE);
    Claim appliedToo = appendAndClaim(ALICE);
    store.delete(missing.entryId());
    OutboxEntry finished = store.tryMarkClaimDeadLettered(terminal, new DeadLetter("poison")).entry();
    store.tryMarkClaimFailed(stale, new RetryableFailure(clock.instant().plusSeconds(600), "retry"));
    OutboxEntry released = store.find(stale.entryId()).orElseThrow();
    Unchanged terminalBefore = capture(terminal.entryId());
    Unchanged staleBefore = capture(stale.entryId());

    List<ClaimTransitionResult> results = store.tryTransitionAll(List.of(
        new ClaimTransition(applied, DeliveryReceipt.of("offset-1")),
        new ClaimTransition(missing, DeliveryReceipt.none()),
        new ClaimTransition(terminal, DeliveryReceipt.none()),
        new ClaimTransition(stale, DeliveryReceipt.none()),
        new ClaimTransition(appliedToo, new RetryableFailure(clock.instant().plusSeconds(60), "later"))));

    RuleCheck.requireEqual(Rule.T11, "number of results", 5, results.size());
    expectOutcome(Rule.T11, results.get(0), ClaimTransitionOutcome.APPLIED);
    expectOutcome(Rule.T11, results.get(1), ClaimTransitionOutcome.MISSING);
    expectOutcome(Rule.T11, results.get(2), ClaimTransitionOutcome.TERMINAL);
    expectOutcome(Rule.T11, results.get(3), ClaimTransitionOutcome.STALE_CLAIM);
    expectOutcome(Rule.T11, results.get(4), ClaimTransitionOutcome.APPLIED);
    RuleCheck.requireEqual(Rule.T11, "first element's stored entry", Optional.of(results.get(0).entry()),
        store.find(applied.entryId()));
    RuleCheck.requireEqual(Rule.T11, "last element's stored entry", Optional.of(results.get(4).entry()),
        store.find(appliedToo.entryId()));
    RuleCheck.requireEqual(Rule.T11, "missing element's entry (the caller's snapshot)", missing.snapshot(),
        results.get(1).entry());
    RuleCheck.requireEqual(Rule.T11, "terminal element's entry", finished, results.get(2).entry());
    RuleCheck.requireEqual(Rule.T11, "stale element's entry", released, results.get(3).entry());
    expectUnchanged(Rule.T11, terminalBefore);
    expectUnchanged(Rule.T11, staleBefore);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(TransitionKind.class)
  void t12_batchOfOneKindAppliesEveryElement(TransitionKind kind) {
    List<Claim> claims = List.of(appendAndClaim(ALICE), appendAndClaim(ALICE), appendAndClaim(ALICE));
    List<ClaimTransition> batch = new ArrayList<>();
    claims.forEach(claim -> batch.add(new ClaimTransition(claim, requestFor(kind))));

    List<ClaimTransitionResult> results = store.tryTransitionAll(batch);

    RuleCheck.requireEqual(Rule.T12, "number of results", claims.size(), results.size());
    for (int i = 0; i < claims.size(); i++) {
      ClaimTransitionResult result = results.get(i);
      expectOutcome(Rule.T12, result, ClaimTransitionOutcome.APPLIED);
      RuleCheck.requireEqual(Rule.T12, "entry id of result " + i, claims.get(i).entryId(), result.entry().id());
      RuleCheck.requireEqual(Rule.T12, "revision of result " + i, claims.get(i).snapshot().revision() + 1,
          result.entry().revision());
      RuleCheck.requireEqual(Rule.T12, "stored entry of result " + i, Optional.of(result.entry()),
          store.find(claims.get(i).entryId()));
    }
    RuleCheck.require(Rule.T12, results.stream().map(result -> result.entry().lastWriteStamp()).distinct().count() == 3,
        () -> "each element must store its own write stamp, but the stamps are "
            + results.stream().map(result -> result.entry().lastWriteStamp()).toList());
  }

  @Test
  void t13_badBatchIsRejectedBeforeAnyWrite() {
    Claim first = appendAndClaim(ALICE);
    Claim second = appendAndClaim(ALICE);
    Unchanged firstBefore = capture(first.entryId());
    Unchanged secondBefore = capture(second.entryId());

    RuleCheck.requireThrows(Rule.T13, NullPointerException.class, "transitions[1]", () ->
        store.tryTransitionAll(Arrays.asList(new ClaimTransition(first, DeliveryReceipt.none()), null)));
    RuleCheck.requireThrows(Rule.T13, IllegalArgumentException.class, "transitions[2]", () ->
        store.tryTransitionAll(List.of(
            new ClaimTransition(first, DeliveryReceipt.none()),
            new ClaimTransition(second, DeliveryReceipt.none()),
            new ClaimTransition(first, new DeadLetter("again")))));
    RuleCheck.requireThrows(Rule.T13, NullPointerException.class, "transitions", () ->
        store.tryTransitionAll(null));

    expectUnchanged(Rule.T13, firstBefore);
    expectUnchanged(Rule.T13, secondBefore);
    RuleCheck.requireEqual(Rule.T13, "an empty batch", List.of(), store.tryTransitionAll(List.of()));
  }
}
