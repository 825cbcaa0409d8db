package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FaultProxy.Fault;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rules F1–F5: faults on the wire. The fixture routes a second store's connections through the
 * suite's {@link FaultProxies}; the rules cut, lose and hold that store's requests while the first
 * store (direct) stages what other workers do and reads what landed. Each call must answer with an
 * outcome or one of the two documented exceptions, never guess {@code APPLIED}, lose nothing, and
 * work again afterwards.
 */
public abstract class FaultRules extends ConformanceTestBase {

  /** How many requests a fault lets pass first, walked up so it meets each request of a call. */
  private static final int MAX_SKIP = 3;
  private static final Duration WAIT = Duration.ofSeconds(30);
  /** Threads calling at once after a cut, each with a pooled connection of its own. */
  private static final int PARALLEL_CALLERS = 4;

  private FaultProxies proxies;
  private OutboxClaimOutcomeStore faulty;

  @AfterEach
  void closeProxies() throws Exception {
    if (faulty instanceof AutoCloseable closeable && faulty != store) {
      closeable.close();
    }
    if (proxies != null) {
      proxies.close();
    }
  }

  private void openFaultyStore(Rule rule) {
    assumeFixture(rule, FixtureCapability.FAULT_PROXY);
    proxies = new FaultProxies();
    faulty = fixture().openStoreThrough(new FixtureContext(clock, race), proxies);
  }

  /** What one call did: its result, or the exception it threw. */
  private record Attempt(ClaimTransitionResult result, RuntimeException thrown) {
    static Attempt of(Supplier<ClaimTransitionResult> call) {
      try {
        return new Attempt(call.get(), null);
      } catch (RuntimeException thrown) {
        return new Attempt(null, thrown);
      }
    }

    boolean applied() {
      return result != null && result.isApplied();
    }
  }

  @Test
  void f1_cutBeforeARequestIsAnsweredTruthfully() {
    openFaultyStore(Rule.F1);
    for (TransitionKind kind : TransitionKind.values()) {
      for (int skip = 0; skip <= MAX_SKIP; skip++) {
        Claim claim = appendAndClaim(ALICE);
        RawEntryState before = raw(claim.entryId());
        proxies.arm(Fault.CUT_BEFORE_REQUEST, skip);
        Attempt attempt = Attempt.of(() -> faulty.tryTransition(claim, requestFor(kind)));
        proxies.disarm();
        expectTruthful(Rule.F1, kind + ", cut before request " + (skip + 1), claim, before, attempt);
        expectWorksAgain(Rule.F1, claim, kind);
      }
    }
    RuleCheck.require(Rule.F1, proxies.faultsFired() > 0,
        () -> "no fault fired: route every connection of the store through proxies.proxyFor(host, port)");
  }

  @Test
  void f2_lostAnswerAfterTheServerActedIsResolvedNotGuessed() {
    openFaultyStore(Rule.F2);
    for (TransitionKind kind : TransitionKind.values()) {
      for (int skip = 0; skip <= MAX_SKIP; skip++) {
        Claim claim = appendAndClaim(ALICE);
        RawEntryState before = raw(claim.entryId());
        proxies.arm(Fault.CUT_AFTER_REQUEST, skip);
        Attempt attempt = Attempt.of(() -> faulty.tryTransition(claim, requestFor(kind)));
        proxies.disarm();
        String scenario = kind + ", answer lost after request " + (skip + 1);
        expectTruthful(Rule.F2, scenario, claim, before, attempt);
        RawEntryState after = raw(claim.entryId());
        boolean landed = after.revision() > before.revision();
        RuleCheck.require(Rule.F2, !landed || attempt.applied(), () -> scenario + ": the write landed (row "
            + after + ") and the store could read it again, but the call answered "
            + (attempt.thrown() != null ? attempt.thrown() : attempt.result().outcome()));
        expectWorksAgain(Rule.F2, claim, kind);
      }
    }
    RuleCheck.require(Rule.F2, proxies.faultsFired() > 0,
        () -> "no fault fired: route every connection of the store through proxies.proxyFor(host, port)");
  }

  @Test
  void f3_aWriteHeldPastItsLeaseNeverLandsOverTheNewHolder() throws Exception {
    openFaultyStore(Rule.F3);
    Claim alice = appendAndClaim(ALICE);
    // held by its entry id: a pool still opening connections in the background must not be held instead
    proxies.armFor(Fault.HOLD_REQUEST, alice.entryId().value());
    CompletableFuture<Attempt> late = CompletableFuture.supplyAsync(
        () -> Attempt.of(() -> faulty.tryMarkClaimDelivered(alice, DeliveryReceipt.of("late"))));
    RuleCheck.require(Rule.F3, proxies.awaitHeld(WAIT), () -> "the delivery never reached the fault proxy");
    clock.advance(LEASE.plusSeconds(1));
    Claim bob = claimOne(BOB);
    proxies.release();
    Attempt attempt = late.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    expectDocumented(Rule.F3, "late delivery", attempt);
    RuleCheck.require(Rule.F3, !attempt.applied(),
        () -> "a delivery held past its lease, after Bob re-claimed the entry, answered APPLIED: " + attempt.result());
    RawEntryState now = raw(alice.entryId());
    RuleCheck.require(Rule.F3, "CLAIMED".equals(now.status()) && BOB.value().equals(now.owner())
        && now.tokenGeneration() == bob.token().generation(),
        () -> "Bob's claim must still hold the entry, but the row is " + now);

    Claim deleted = appendAndClaim(ALICE);
    proxies.armFor(Fault.HOLD_REQUEST, deleted.entryId().value());
    CompletableFuture<Attempt> orphan = CompletableFuture.supplyAsync(
        () -> Attempt.of(() -> faulty.tryMarkClaimDelivered(deleted, DeliveryReceipt.of("late"))));
    RuleCheck.require(Rule.F3, proxies.awaitHeld(WAIT), () -> "the second delivery never reached the fault proxy");
    store.delete(deleted.entryId());
    proxies.release();
    Attempt afterDelete = orphan.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    expectDocumented(Rule.F3, "delivery held while the entry was deleted", afterDelete);
    RuleCheck.require(Rule.F3, !afterDelete.applied(),
        () -> "a delivery held while its entry was deleted answered APPLIED: " + afterDelete.result());
    RuleCheck.requireEqual(Rule.F3, "rows after the held delivery of a deleted entry", Optional.empty(),
        fixture().readRaw(deleted.entryId()));
  }

  @Test
  void f4_aClaimWhoseAnswerIsLostLosesNothing() {
    openFaultyStore(Rule.F4);
    List<EntryId> appended = List.of(appendOne().id(), appendOne().id(), appendOne().id(), appendOne().id());
    for (int skip = 0; skip <= MAX_SKIP; skip++) {
      proxies.arm(Fault.CUT_AFTER_REQUEST, skip);
      List<Claim> claims;
      try {
        claims = faulty.claimDue(ALICE, appended.size(), LEASE);
      } catch (OutboxStoreException documented) {
        claims = List.of();
      } catch (RuntimeException undocumented) {
        throw new AssertionError(Rule.F4.violation("claimDue threw " + undocumented
            + "; a store call throws only OutboxStoreException or TransitionOutcomeUnknownException"), undocumented);
      }
      proxies.disarm();
      for (Claim claim : claims) {
        RawEntryState row = raw(claim.entryId());
        RuleCheck.require(Rule.F4, ALICE.value().equals(row.owner()) && row.tokenGeneration() == claim.token().generation(),
            () -> "a returned claim " + claim + " is not the stored one " + row);
      }
      clock.advance(LEASE.plusSeconds(1));
      // A server aborts a cut session's open transaction only once it reads the closed socket; until
      // then its row locks make a SKIP LOCKED claim pass the rows over. Claim again until they come
      // free (bounded by WAIT), never longer: what must not happen is that they never do.
      List<EntryId> later = new ArrayList<>();
      Instant deadline = Instant.now().plus(WAIT);
      do {
        store.claimDue(BOB, appended.size() + 1, LEASE).forEach(claim -> later.add(claim.entryId()));
      } while (later.size() < appended.size() && Instant.now().isBefore(deadline));
      RuleCheck.requireEqual(Rule.F4, "entries claimable once the lost claim's lease ended (skip " + skip + ")",
          appended.stream().sorted().toList(), later.stream().sorted().toList());
      clock.advance(LEASE.plusSeconds(1));
    }
  }

  @Test
  void f5_afterEveryConnectionIsCutCallsWorkAgain() {
    openFaultyStore(Rule.F5);
    Claim claim = appendAndClaim(ALICE);
    warmUp(claim.entryId());
    proxies.cutAllConnections();
    RuleCheck.require(Rule.F5, secondTry(Rule.F5, "find, the first call after the cut,", () -> faulty.find(claim.entryId())).isPresent(),
        () -> "the first call after the cut, find, did not succeed by its second try");
    Claim renewed = everyCallWorksAtOnce(claim, "after a cut met by find");

    warmUp(claim.entryId());
    proxies.cutAllConnections();
    secondTry(Rule.F5, "append, the first call after the second cut,", () -> faulty.append(message("after-cut")));
    everyCallWorksAtOnce(renewed, "after a cut met by append (a call that must not be repeated blindly)");
  }

  @Test
  void f6_aLostSaveIsNotGuessedAppliedAfterTheHoldersOwnOtherWrite() throws Exception {
    openFaultyStore(Rule.F6);
    int held = 0;
    for (int skip = 0; skip <= MAX_SKIP; skip++) {
      Claim older = appendAndClaim(ALICE);
      RawEntryState before = raw(older.entryId());
      proxies.arm(Fault.HOLD_REQUEST, skip);
      CompletableFuture<Attempt> save = CompletableFuture.supplyAsync(
          () -> Attempt.of(() -> faulty.trySaveClaim(older, LeaseRenewal.withProgress(LEASE, "held save"))));
      if (!heldOrDone(save)) {
        proxies.disarm();
        store.delete(older.entryId());
        continue;
      }
      held++;
      // the holder's other thread (a drain's lease keeper) writes the next revision under the same claim
      OutboxEntry other = store.trySaveClaim(older, LeaseRenewal.withProgress(LEASE, "other write")).entry();
      proxies.release();
      Attempt attempt = save.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      String scenario = "the save held at request " + (skip + 1);
      expectDocumented(Rule.F6, scenario, attempt);
      RawEntryState after = raw(older.entryId());
      String otherStamp = other.lastWriteStamp().map(Object::toString).orElseThrow();
      if (attempt.applied()) {
        OutboxEntry saved = attempt.result().entry();
        String stamp = saved.lastWriteStamp().map(Object::toString).orElse(null);
        // APPLIED is true when the row carries the save, or when the save landed before the held request and the
        // other write came on top of it (a later revision); never when the other write took the revision it claims
        boolean stored = stamp != null && stamp.equals(after.writeStamp());
        boolean underTheOtherWrite = saved.revision() < other.revision() && after.revision() == other.revision();
        RuleCheck.require(Rule.F6, stored || underTheOtherWrite, () -> scenario + " answered APPLIED at revision "
            + saved.revision() + ", but the row " + after + " does not carry its write " + stamp + " (the other write,"
            + " revision " + other.revision() + ", is " + otherStamp + ")");
      } else {
        RuleCheck.require(Rule.F6, otherStamp.equals(after.writeStamp()) && after.revision() == before.revision() + 1,
            () -> scenario + " answered " + (attempt.thrown() != null ? attempt.thrown() : attempt.result().outcome())
                + ", so the row must be the other write " + otherStamp + " at revision " + (before.revision() + 1)
                + ", but is " + after);
      }
      store.delete(older.entryId());
    }
    int heldRequests = held;
    RuleCheck.require(Rule.F6, heldRequests > 0,
        () -> "no request was held: route every connection of the store through proxies.proxyFor(host, port)");
  }

  /** Until the armed fault holds a request, or the call finished without one (it had fewer requests). */
  private boolean heldOrDone(CompletableFuture<Attempt> call) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (proxies.awaitHeld(Duration.ofMillis(20))) {
        return true;
      }
      if (call.isDone()) {
        return false;
      }
    }
    throw new AssertionError(Rule.F6.violation("the save neither reached the fault proxy nor finished within " + WAIT));
  }

  /** Several calls at once, so the store's pool holds several connections for the cut to break. */
  private void warmUp(EntryId id) {
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      calls.add(CompletableFuture.runAsync(() -> faulty.find(id)));
    }
    calls.forEach(CompletableFuture::join);
  }

  /**
   * After the first call met the cut, every call must work at its first try, also when several
   * threads call at once (as a drain's handlers and poller do, each taking a pooled connection of
   * its own): the store dropped its broken connections instead of handing them out one by one.
   */
  private Claim everyCallWorksAtOnce(Claim claim, String when) {
    Claim current = claim;
    for (int round = 1; round <= 2; round++) {
      String which = when + ", round " + round;
      Claim holder = current;
      ClaimTransitionResult saved = firstTry(which + ", save", () -> faulty.trySaveClaim(holder, LeaseRenewal.of(LEASE)));
      RuleCheck.require(Rule.F5, saved.isApplied(),
          () -> "the holder's save " + which + " answered " + saved.outcome() + ", not APPLIED");
      current = Claim.of(saved.entry());
      inParallel(which + ", find", () -> RuleCheck.require(Rule.F5, faulty.find(claim.entryId()).isPresent(),
          () -> "find lost the entry " + which));
      inParallel(which + ", claimDue", () -> faulty.claimDue(BOB, 1, LEASE));
      inParallel(which + ", append", () -> faulty.append(message("after-cut")));
    }
    return current;
  }

  /** The call from {@link #PARALLEL_CALLERS} threads at once; each must work at its first try. */
  private static void inParallel(String what, Runnable call) {
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int i = 0; i < PARALLEL_CALLERS; i++) {
      calls.add(CompletableFuture.runAsync(() -> firstTry(what, () -> {
        call.run();
        return null;
      })));
    }
    for (CompletableFuture<Void> future : calls) {
      try {
        future.get(WAIT.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException failed) {
        if (failed.getCause() instanceof AssertionError assertion) {
          throw assertion;
        }
        throw new AssertionError(Rule.F5.violation(what + " threw " + failed.getCause()), failed.getCause());
      } catch (InterruptedException | TimeoutException stuck) {
        throw new AssertionError(Rule.F5.violation(what + " did not finish within " + WAIT), stuck);
      }
    }
  }

  private static <T> T firstTry(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (OutboxStoreException failure) {
      throw new AssertionError(Rule.F5.violation(what + " failed although an earlier call had already met the"
          + " broken connections: " + failure), failure);
    }
  }

  private static <T> T secondTry(Rule rule, String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (OutboxStoreException first) {
      try {
        return call.get();
      } catch (OutboxStoreException second) {
        second.addSuppressed(first);
        throw new AssertionError(rule.violation(what + " failed at its first and at its second try: " + second), second);
      }
    }
  }

  private void expectTruthful(Rule rule, String scenario, Claim claim, RawEntryState before, Attempt attempt) {
    expectDocumented(rule, scenario, attempt);
    Optional<RawEntryState> after = fixture().readRaw(claim.entryId());
    RuleCheck.require(rule, after.isPresent(), () -> scenario + ": the entry is gone; nothing may be lost");
    if (attempt.applied()) {
      String stamp = attempt.result().entry().lastWriteStamp().map(Object::toString).orElse(null);
      RuleCheck.require(rule, stamp != null && stamp.equals(after.get().writeStamp()),
          () -> scenario + ": APPLIED, but the stored row " + after.get() + " does not carry its write " + stamp);
    } else if (attempt.thrown() != null && !(attempt.thrown() instanceof TransitionOutcomeUnknownException)) {
      RuleCheck.require(rule, before.equals(after.get()), () -> scenario + ": OutboxStoreException promises"
          + " nothing was written, but the row changed from " + before + " to " + after.get());
    } else if (attempt.result() != null) {
      RuleCheck.require(rule, before.equals(after.get()), () -> scenario + ": answered "
          + attempt.result().outcome() + " (not this call's write), but the row changed from " + before + " to "
          + after.get());
    }
  }

  private static void expectDocumented(Rule rule, String scenario, Attempt attempt) {
    if (attempt.thrown() != null && !(attempt.thrown() instanceof OutboxStoreException)) {
      throw new AssertionError(rule.violation(scenario + ": threw " + attempt.thrown() + "; a store call"
          + " throws only OutboxStoreException or TransitionOutcomeUnknownException"), attempt.thrown());
    }
  }

  /** The same claim asks again; the store must answer, and an APPLIED must be stored. */
  private void expectWorksAgain(Rule rule, Claim claim, TransitionKind kind) {
    ClaimTransitionResult again = secondTry(rule, "after the fault, " + kind,
        () -> faulty.tryTransition(claim, requestFor(kind)));
    if (again.isApplied()) {
      RawEntryState row = raw(claim.entryId());
      RuleCheck.require(rule, again.entry().lastWriteStamp().map(Object::toString).orElse("").equals(row.writeStamp()),
          () -> "after the fault, " + kind + " answered APPLIED but the row " + row + " does not carry its write");
    }
    store.delete(claim.entryId());
  }
}
