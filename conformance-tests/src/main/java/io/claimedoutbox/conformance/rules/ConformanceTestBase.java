package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.TestInfo;
import org.opentest4j.AssertionFailedError;

/**
 * What every rule group shares: a fresh store over a clean backend for each test, the suite's
 * clock and race stager, and helpers that fail with rule-named messages.
 */
@DisplayNameGeneration(RuleDisplayNames.class)
public abstract class ConformanceTestBase {

  /** Where the suite's clock starts. */
  protected static final Instant START = Instant.parse("2030-01-01T00:00:00Z");
  /** The lease most tests claim with. */
  protected static final Duration LEASE = Duration.ofSeconds(30);
  /** A worker. */
  protected static final WorkerId ALICE = WorkerId.of("worker-alice");
  /** Another worker. */
  protected static final WorkerId BOB = WorkerId.of("worker-bob");

  /** The clock the store under test reads. */
  protected MutableClock clock;
  /** The hook the store under test calls between evaluation and write. */
  protected StagedRace race;
  /** The store under test, over a clean backend. */
  protected OutboxClaimOutcomeStore store;

  /** @return the adapter's fixture */
  protected abstract OutboxStoreFixture fixture();

  @BeforeEach
  void openStoreOverCleanBackend(TestInfo test) {
    test.getTestMethod()
        .flatMap(method -> RuleDisplayNames.ruleOf(method.getName()))
        .filter(rule -> fixture().standInGaps().containsKey(rule))
        .ifPresent(rule -> Assumptions.abort(rule.name() + " is not checked on " + fixture().backendName() + ": "
            + fixture().standInGaps().get(rule)));
    fixture().clean();
    clock = new MutableClock(START);
    race = new StagedRace();
    store = fixture().openStore(new FixtureContext(clock, race));
  }

  @AfterEach
  void closeStore() throws Exception {
    if (store instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  /** @return a small message with a distinctive payload and header */
  protected static OutboxMessage message(String topic) {
    return OutboxMessage.of(topic, ("payload of " + topic).getBytes(StandardCharsets.UTF_8))
        .withHeader("content-type", "text/plain");
  }

  /** @return a freshly appended entry */
  protected OutboxEntry appendOne() {
    return store.append(message("orders"));
  }

  /**
   * Claims exactly one entry for {@code worker}; fails the test (as a broken setup) otherwise.
   *
   * @param worker who claims
   * @return the claim
   */
  protected Claim claimOne(WorkerId worker) {
    List<Claim> claims = store.claimDue(worker, 1, LEASE);
    if (claims.size() != 1) {
      throw new AssertionFailedError("test setup: expected " + worker + " to claim one due entry,"
          + " got " + claims + " (see rules C1 and C4 for why)");
    }
    return claims.get(0);
  }

  /** @return an entry appended and claimed by {@code worker} */
  protected Claim appendAndClaim(WorkerId worker) {
    appendOne();
    return claimOne(worker);
  }

  /** @return the raw row, failing when it is absent */
  protected RawEntryState raw(EntryId id) {
    return fixture().readRaw(id).orElseThrow(
        () -> new AssertionFailedError("test setup: no raw row for " + id));
  }

  /**
   * A typical request of the given kind at the clock's current time.
   *
   * @param kind the transition
   * @return the request
   */
  protected TransitionRequest requestFor(TransitionKind kind) {
    return switch (kind) {
      case DELIVERED -> DeliveryReceipt.of("offset-42");
      case FAILED -> new RetryableFailure(clock.instant().plusSeconds(60), "broker unavailable");
      case DEAD_LETTERED -> new DeadLetter("poison message");
      case SAVE -> LeaseRenewal.withProgress(LEASE, "half done");
    };
  }

  /**
   * Runs a transition of {@code kind} through its named {@code try…} method.
   *
   * @param claim the claim
   * @param kind the transition
   * @return the result
   */
  protected ClaimTransitionResult tryTransition(Claim claim, TransitionKind kind) {
    TransitionRequest request = requestFor(kind);
    return switch (kind) {
      case DELIVERED -> store.tryMarkClaimDelivered(claim, (DeliveryReceipt) request);
      case FAILED -> store.tryMarkClaimFailed(claim, (RetryableFailure) request);
      case DEAD_LETTERED -> store.tryMarkClaimDeadLettered(claim, (DeadLetter) request);
      case SAVE -> store.trySaveClaim(claim, (LeaseRenewal) request);
    };
  }

  /**
   * Runs a transition of {@code kind} through its compatibility method.
   *
   * @param claim the claim
   * @param kind the transition
   * @return the entry the compatibility method returned
   */
  protected OutboxEntry compatTransition(Claim claim, TransitionKind kind) {
    TransitionRequest request = requestFor(kind);
    return switch (kind) {
      case DELIVERED -> store.markClaimDelivered(claim, (DeliveryReceipt) request);
      case FAILED -> store.markClaimFailed(claim, (RetryableFailure) request);
      case DEAD_LETTERED -> store.markClaimDeadLettered(claim, (DeadLetter) request);
      case SAVE -> store.saveClaim(claim, (LeaseRenewal) request);
    };
  }

  /** Fails under {@code rule} unless the result has {@code expected} as outcome. */
  protected static void expectOutcome(
      Rule rule, ClaimTransitionResult result, ClaimTransitionOutcome expected) {
    RuleCheck.require(rule, result.outcome() == expected,
        () -> "expected outcome " + expected + " but was " + result.outcome()
            + " carrying " + result.entry());
  }

  /** An entry as it was before a call that must not write: its raw row and its whole decoded entry. */
  protected record Unchanged(RawEntryState raw, OutboxEntry entry) {}

  /**
   * Captures an entry before a call that must write nothing, then moves the clock on by a
   * millisecond — the precision every store keeps — so that any write the call makes, even one
   * that changes nothing else, shows in the update time.
   *
   * @param id the entry
   * @return what to compare with afterwards ({@link #expectUnchanged(Rule, Unchanged)})
   */
  protected Unchanged capture(EntryId id) {
    Unchanged before = new Unchanged(raw(id), store.find(id).orElseThrow(
        () -> new AssertionFailedError("test setup: no entry " + id)));
    clock.advance(Duration.ofMillis(1));
    return before;
  }

  /** Fails under {@code rule} unless the stored row and the whole stored entry are exactly as captured. */
  protected void expectUnchanged(Rule rule, Unchanged before) {
    expectUnchanged(rule, before.raw());
    OutboxEntry after = store.find(before.entry().id()).orElse(null);
    RuleCheck.require(rule, before.entry().equals(after),
        () -> "nothing may be written, but the entry changed from " + before.entry() + " to " + after);
  }

  /** Fails under {@code rule} unless the stored row is exactly as it was. */
  protected void expectUnchanged(Rule rule, RawEntryState before) {
    RawEntryState after = fixture().readRaw(EntryId.of(before.id())).orElse(null);
    RuleCheck.require(rule, before.equals(after),
        () -> "nothing may be written, but the row changed from " + before + " to " + after);
  }

  /**
   * Reports the test skipped, with the reason, when the store decides and writes in one atomic
   * step: it cannot observe a write landing between evaluation and write.
   *
   * @param rule the rule that needs a staged race
   */
  protected void assumeStagedRacesPossible(Rule rule) {
    Assumptions.assumeFalse(store.capabilities().contains(StoreCapability.ATOMIC_EVALUATION),
        rule.name() + " does not apply: the store declares ATOMIC_EVALUATION, so no write can land"
            + " between its evaluation and its write; H1 checks it never reports CONCURRENCY_LOST");
  }

  /**
   * Reports the test skipped, with the reason, when the fixture lacks {@code capability}.
   *
   * @param rule the rule that needs it
   * @param capability what it needs
   */
  protected void assumeFixture(Rule rule, FixtureCapability capability) {
    Assumptions.assumeTrue(fixture().capabilities().contains(capability),
        rule.name() + " is optional and needs the fixture capability " + capability + ", which "
            + fixture().backendName() + " does not declare");
  }

  /** Fails under {@code rule} unless the staged race actually ran. */
  protected void expectRaceStaged(Rule rule) {
    RuleCheck.require(rule, race.timesFired() == 1,
        () -> "the staged competing write never ran: the store did not call the "
            + "TransitionWriteHook from FixtureContext.writeHook() between evaluation and write");
  }
}
