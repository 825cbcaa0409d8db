package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Rules C1–C10: which entries a claim picks, and what a claim and its lease mean. */
public abstract class ClaimingRules extends ConformanceTestBase {

  private static Set<EntryId> ids(List<Claim> claims) {
    return claims.stream().map(Claim::entryId).collect(Collectors.toSet());
  }

  @Test
  void c1_claimPicksOnlyDueEntries() {
    OutboxEntry duePending = appendOne();
    OutboxEntry futurePending = store.append(message("later").availableAt(START.plusSeconds(600)));
    OutboxEntry failedNotYetDue = appendOne();
    OutboxEntry failedDue = appendOne();
    OutboxEntry liveLease = appendOne();
    OutboxEntry delivered = appendOne();
    for (Claim claim : store.claimDue(ALICE, 10, LEASE)) {
      if (claim.entryId().equals(failedNotYetDue.id())) {
        store.tryMarkClaimFailed(claim, new RetryableFailure(START.plusSeconds(300), "later"));
      } else if (claim.entryId().equals(failedDue.id())) {
        store.tryMarkClaimFailed(claim, new RetryableFailure(START.plusSeconds(5), "soon"));
      } else if (claim.entryId().equals(delivered.id())) {
        store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());
      } else if (claim.entryId().equals(duePending.id())) {
        store.tryMarkClaimFailed(claim, new RetryableFailure(START, "at once"));
      }
    }
    clock.advance(Duration.ofSeconds(10));

    Set<EntryId> claimed = ids(store.claimDue(BOB, 10, LEASE));

    RuleCheck.requireEqual(Rule.C1, "entries claimed at +10s",
        Set.of(duePending.id(), failedDue.id()), claimed);

    clock.advance(Duration.ofSeconds(25));
    Set<EntryId> afterLease = ids(store.claimDue(BOB, 10, LEASE));
    RuleCheck.requireEqual(Rule.C1, "entries claimed once the first lease expired",
        Set.of(liveLease.id()), afterLease);
    clock.advance(Duration.ofSeconds(600));
    Set<EntryId> late = ids(store.claimDue(BOB, 10, LEASE));
    RuleCheck.require(Rule.C1, late.containsAll(Set.of(futurePending.id(), failedNotYetDue.id()))
            && !late.contains(delivered.id()),
        () -> "at +635s the future entry and the failed entry are due and the delivered one never;"
            + " claimed " + late);
  }

  @Test
  void c2_oldestDueFirst() {
    OutboxEntry third = store.append(message("third").availableAt(START.minusSeconds(10)));
    OutboxEntry first = store.append(message("first").availableAt(START.minusSeconds(30)));
    OutboxEntry second = store.append(message("second").availableAt(START.minusSeconds(20)));

    List<EntryId> order = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      order.add(claimOne(ALICE).entryId());
    }

    RuleCheck.requireEqual(Rule.C2, "claim order", List.of(first.id(), second.id(), third.id()), order);
  }

  @Test
  void c11_expiredLeasesAndPendingEntriesCompeteByDueTime() {
    OutboxEntry leased = store.append(message("leased").availableAt(START.minusSeconds(100)));
    Claim bob = claimOne(BOB);
    RuleCheck.requireEqual(Rule.C11, "test setup: Bob's claim", leased.id(), bob.entryId());
    OutboxEntry earlier = store.append(message("earlier").availableAt(START.plus(LEASE).minusSeconds(10)));
    OutboxEntry later = store.append(message("later").availableAt(START.plus(LEASE).plusSeconds(10)));
    clock.advance(LEASE.plusSeconds(60));

    List<EntryId> order = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      order.add(claimOne(ALICE).entryId());
    }

    RuleCheck.requireEqual(Rule.C11, "claim order (available at lease end - 10 s, lease end, lease end + 10 s)",
        List.of(earlier.id(), leased.id(), later.id()), order);
  }

  @Test
  void c12_storeTimeKeepsASkewedWorkerOffLiveLeases() throws Exception {
    assumeFixture(Rule.C12, FixtureCapability.STORE_TIME);
    MutableClock hourAhead = new MutableClock(Instant.now().plus(Duration.ofHours(1)));
    OutboxClaimOutcomeStore alice = fixture().openStoreOnStoreTime(new FixtureContext(new MutableClock(START), race));
    OutboxClaimOutcomeStore bob = fixture().openStoreOnStoreTime(new FixtureContext(hourAhead, race));
    OutboxClaimOutcomeStore bobOnOwnClock = fixture().openStore(new FixtureContext(hourAhead, race));
    try {
      alice.append(message("skewed"));
      RuleCheck.requireEqual(Rule.C12, "claims Alice takes on store time", 1, alice.claimDue(ALICE, 1, LEASE).size());

      RuleCheck.requireEqual(Rule.C12, "claims Bob, an hour ahead but on store time, takes while Alice's lease"
          + " is live", List.of(), bob.claimDue(BOB, 1, LEASE));
      RuleCheck.requireEqual(Rule.C12, "claims Bob takes on his own clock (the skew the option guards against)",
          1, bobOnOwnClock.claimDue(BOB, 1, LEASE).size());
    } finally {
      for (OutboxClaimOutcomeStore opened : List.of(alice, bob, bobOnOwnClock)) {
        if (opened instanceof AutoCloseable closeable) {
          closeable.close();
        }
      }
    }
  }

  @Test
  void c3_batchIsBounded() {
    for (int i = 0; i < 7; i++) {
      appendOne();
    }
    RuleCheck.requireEqual(Rule.C3, "claims for maxEntries=3", 3, store.claimDue(ALICE, 3, LEASE).size());
    RuleCheck.requireEqual(Rule.C3, "claims for maxEntries=10 of the 4 left", 4,
        store.claimDue(ALICE, 10, LEASE).size());
    RuleCheck.requireEqual(Rule.C3, "claims when nothing is due", List.of(),
        store.claimDue(ALICE, 10, LEASE));
  }

  @Test
  void c4_claimIsStoredBeforeItIsReturned() {
    OutboxEntry appended = appendOne();
    clock.advance(Duration.ofMillis(1234));

    Claim claim = claimOne(ALICE);

    RuleCheck.requireEqual(Rule.C4, "owner", ALICE, claim.owner());
    RuleCheck.requireEqual(Rule.C4, "token generation", 1L, claim.token().generation());
    RuleCheck.requireEqual(Rule.C4, "attempt", 1, claim.attempt());
    RuleCheck.requireEqual(Rule.C4, "claim time", clock.instant(), claim.claimedAt());
    RuleCheck.requireEqual(Rule.C4, "lease end", clock.instant().plus(LEASE), claim.leaseUntil());
    RuleCheck.requireEqual(Rule.C4, "revision", appended.revision() + 1, claim.snapshot().revision());
    RuleCheck.requireEqual(Rule.C4, "stored entry", Optional.of(claim.snapshot()), store.find(claim.entryId()));
    RawEntryState raw = raw(claim.entryId());
    RuleCheck.requireEqual(Rule.C4, "raw status", "CLAIMED", raw.status());
    RuleCheck.requireEqual(Rule.C4, "raw owner", ALICE.value(), raw.owner());
    RuleCheck.requireEqual(Rule.C4, "raw revision", claim.snapshot().revision(), raw.revision());
  }

  @Test
  void c5_reclaimOfExpiredLeaseMintsLargerGeneration() {
    Claim first = appendAndClaim(ALICE);
    clock.advance(LEASE.plusMillis(1));

    Claim second = claimOne(BOB);
    clock.advance(LEASE.plusMillis(1));
    Claim third = claimOne(ALICE);

    RuleCheck.require(Rule.C5, second.token().generation() > first.token().generation()
            && third.token().generation() > second.token().generation(),
        () -> "generations must strictly increase: " + first.token() + ", " + second.token() + ", "
            + third.token());
    RuleCheck.require(Rule.C5, !second.token().nonce().equals(first.token().nonce())
            && !third.token().nonce().equals(first.token().nonce()),
        () -> "every claim needs a new token: " + first.token() + ", " + second.token() + ", "
            + third.token());
    RuleCheck.requireEqual(Rule.C5, "attempts after three claims", 3, third.attempt());
    RuleCheck.requireEqual(Rule.C5, "stored generation", third.token().generation(),
        raw(third.entryId()).tokenGeneration());
  }

  @Test
  void c6_liveLeaseExcludesOtherWorkers() {
    Claim held = appendAndClaim(ALICE);
    clock.advance(LEASE.minusMillis(1));

    RuleCheck.requireEqual(Rule.C6, "claims by another worker during the lease", List.of(),
        store.claimDue(BOB, 10, LEASE));
    RuleCheck.requireEqual(Rule.C6, "claims by the holder itself during the lease", List.of(),
        store.claimDue(ALICE, 10, LEASE));
    clock.advance(Duration.ofMillis(1));
    RuleCheck.requireEqual(Rule.C6, "entries claimable exactly at lease end", Set.of(held.entryId()),
        ids(store.claimDue(BOB, 10, LEASE)));
  }

  @Test
  void c7_lockedRowsAreSkippedNotWaitedFor() {
    assumeFixture(Rule.C7, FixtureCapability.ROW_LOCKS);
    OutboxEntry locked = store.append(message("locked").availableAt(START.minusSeconds(2)));
    OutboxEntry free = store.append(message("free").availableAt(START.minusSeconds(1)));
    List<Claim> claimedWhileLocked = new ArrayList<>();

    fixture().holdRowLock(locked.id(), () -> claimedWhileLocked.addAll(store.claimDue(BOB, 10, LEASE)));

    RuleCheck.requireEqual(Rule.C7, "entries claimed while the older one was locked",
        Set.of(free.id()), ids(claimedWhileLocked));
    RuleCheck.requireEqual(Rule.C7, "entries claimed after the lock was released",
        Set.of(locked.id()), ids(store.claimDue(BOB, 10, LEASE)));
  }

  @Test
  void c8_expiredHolderCanStillFinish() {
    Claim claim = appendAndClaim(ALICE);
    clock.advance(LEASE.multipliedBy(3));

    ClaimTransitionResult result = store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    expectOutcome(Rule.C8, result, ClaimTransitionOutcome.APPLIED);
    RuleCheck.requireEqual(Rule.C8, "status", EntryStatus.DELIVERED, result.entry().status());
  }

  @Test
  void c9_saveExtendsLeaseAndKeepsToken() {
    Claim claim = appendAndClaim(ALICE);
    clock.advance(Duration.ofSeconds(20));

    ClaimTransitionResult saved = store.trySaveClaim(claim, LeaseRenewal.withProgress(LEASE, "page 3"));

    expectOutcome(Rule.C9, saved, ClaimTransitionOutcome.APPLIED);
    Claim renewed = Claim.of(saved.entry());
    RuleCheck.requireEqual(Rule.C9, "token after save", claim.token(), renewed.token());
    RuleCheck.requireEqual(Rule.C9, "lease end", clock.instant().plus(LEASE), renewed.leaseUntil());
    RuleCheck.requireEqual(Rule.C9, "progress", Optional.of("page 3"), saved.entry().progress());
    clock.advance(Duration.ofSeconds(15));
    RuleCheck.requireEqual(Rule.C9, "claims by another worker after the old lease end but within the"
        + " renewed one", List.of(), store.claimDue(BOB, 10, LEASE));
    expectOutcome(Rule.C9, store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()),
        ClaimTransitionOutcome.APPLIED);
  }

  @Test
  void c10_failedReleasesUntilRetryTime() {
    Claim claim = appendAndClaim(ALICE);
    ClaimTransitionResult failed = store.tryMarkClaimFailed(
        claim, new RetryableFailure(START.plusSeconds(120), "timeout"));

    expectOutcome(Rule.C10, failed, ClaimTransitionOutcome.APPLIED);
    RuleCheck.requireEqual(Rule.C10, "status", EntryStatus.FAILED, failed.entry().status());
    RuleCheck.requireEqual(Rule.C10, "claim after failed", Optional.empty(), failed.entry().currentClaim());
    RuleCheck.requireEqual(Rule.C10, "last error", Optional.of("timeout"), failed.entry().lastError());
    RuleCheck.requireEqual(Rule.C10, "raw owner", null, raw(claim.entryId()).owner());
    clock.advance(Duration.ofSeconds(119));
    RuleCheck.requireEqual(Rule.C10, "claims before the retry time", List.of(),
        store.claimDue(BOB, 10, LEASE));
    clock.advance(Duration.ofSeconds(1));
    Claim retry = claimOne(BOB);
    RuleCheck.requireEqual(Rule.C10, "attempt of the retry", 2, retry.attempt());
  }

  @Test
  void c13_aPayloadLimitBoundsTheClaimInDueOrderAndTheFirstEntryAlwaysFits() {
    List<EntryId> appended = new ArrayList<>();
    for (int size : new int[] {100, 200, 300, 5_000}) {
      appended.add(store.append(OutboxMessage.of("sized", new byte[size])).id());
    }
    RuleCheck.requireEqual(Rule.C13, "claimed with a limit of 350 bytes (payloads of 100, 200, 300, 5,000 bytes)",
        appended.subList(0, 2), store.claimDue(ALICE, 10, 350, LEASE).stream().map(Claim::entryId).toList());
    RuleCheck.requireEqual(Rule.C13, "claimed with a limit of 10 bytes (the first due entry, 300 bytes, fits alone)",
        appended.subList(2, 3), store.claimDue(ALICE, 10, 10, LEASE).stream().map(Claim::entryId).toList());
    RuleCheck.requireEqual(Rule.C13, "claimed with a limit of 1 byte", appended.subList(3, 4),
        store.claimDue(ALICE, 10, 1, LEASE).stream().map(Claim::entryId).toList());
    RuleCheck.requireThrows(Rule.C13, IllegalArgumentException.class, "maxPayloadBytes",
        () -> store.claimDue(ALICE, 10, 0, LEASE));
  }

  @Test
  void c16_claimAppendedTakesOnlyWhatIsStillAsAppendedAndDue() {
    Assumptions.assumeTrue(store.capabilities().contains(StoreCapability.CLAIM_APPENDED),
        () -> fixture().backendName() + " does not declare CLAIM_APPENDED: its claimAppended claims nothing");
    OutboxEntry taken = appendOne();
    Claim bobs = claimOne(BOB);
    OutboxEntry plain = appendOne();
    OutboxEntry keyed = store.append(message("orders").withOrderingKey("customer-1"));
    OutboxEntry later = store.append(message("orders").availableAt(clock.instant().plusSeconds(60)));

    List<Claim> claims = store.claimAppended(ALICE, List.of(taken, plain, keyed, later), LEASE);
    RuleCheck.requireEqual(Rule.C16, "claimed as appended (one taken by Bob, one plain, one keyed, one not yet"
        + " available)", List.of(plain.id()), claims.stream().map(Claim::entryId).toList());
    Claim claim = claims.get(0);
    RuleCheck.requireEqual(Rule.C16, "the claim's snapshot against the stored entry", store.find(plain.id()),
        Optional.of(claim.snapshot()));
    RuleCheck.require(Rule.C16, claim.token().generation() == 1 && claim.snapshot().attempts() == 1
        && ALICE.value().equals(raw(plain.id()).owner()), () -> "a first claim must be generation 1, attempt 1,"
        + " owned by " + ALICE + "; got " + claim.token() + " and the row " + raw(plain.id()));
    RuleCheck.requireEqual(Rule.C16, "Bob's entry after claimAppended", BOB.value(), raw(taken.id()).owner());
    RuleCheck.requireEqual(Rule.C16, "claimed as appended a second time", List.of(),
        store.claimAppended(BOB, List.of(plain), LEASE));
    RuleCheck.requireEqual(Rule.C16, "claimed by a due query afterwards", Set.of(keyed.id()),
        store.claimDue(WorkerId.of("worker-carol"), 10, LEASE).stream().map(Claim::entryId).collect(Collectors.toSet()));
    RuleCheck.require(Rule.C16, store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()).isApplied(),
        () -> "the delivery of a claim made by claimAppended must be APPLIED");
    RuleCheck.require(Rule.C16, store.tryMarkClaimDelivered(bobs, DeliveryReceipt.none()).isApplied(),
        () -> "Bob's delivery after claimAppended passed his entry over must be APPLIED");

    RuleCheck.requireThrows(Rule.C16, NullPointerException.class, "appended",
        () -> store.claimAppended(ALICE, null, LEASE));
    RuleCheck.requireThrows(Rule.C16, NullPointerException.class, "worker",
        () -> store.claimAppended(null, List.of(plain), LEASE));
    RuleCheck.requireThrows(Rule.C16, IllegalArgumentException.class, "lease",
        () -> store.claimAppended(ALICE, List.of(plain), Duration.ZERO));
  }

  @Test
  void c17_anEntryTakenOnAppendIsStoredClaimedAndFencedLikeAnyClaim() {
    Assumptions.assumeTrue(store.capabilities().contains(StoreCapability.CLAIM_ON_APPEND),
        () -> fixture().backendName() + " does not declare CLAIM_ON_APPEND: its appends offer nothing");
    TakingListener alice = new TakingListener(ALICE, 1);
    OutboxEntry taken;
    OutboxEntry declined;
    OutboxEntry keyed;
    OutboxEntry later;
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(alice)) {
      taken = appendOne();
      declined = appendOne();
      keyed = store.append(message("orders").withOrderingKey("customer-1"));
      later = store.append(message("orders").availableAt(clock.instant().plusSeconds(600)));
    }
    RuleCheck.requireEqual(Rule.C17, "entries offered (a plain one, a second plain one, a keyed one, one not yet"
        + " available)", List.of(taken.id(), declined.id()), alice.offered());
    RuleCheck.require(Rule.C17, taken.status() == EntryStatus.CLAIMED
        && taken.currentClaim().map(held -> held.owner().equals(ALICE) && held.token().generation() == 1).orElse(false)
        && taken.attempts() == 1, () -> "the entry taken on append must be returned CLAIMED by " + ALICE
        + ", generation 1, attempt 1; got " + taken);
    RuleCheck.requireEqual(Rule.C17, "the stored entry taken on append", Optional.of(taken), store.find(taken.id()));
    RuleCheck.requireEqual(Rule.C17, "raw owner of the entry taken on append", ALICE.value(), raw(taken.id()).owner());
    RuleCheck.requireEqual(Rule.C17, "entries reported committed claimed", List.of(taken), alice.committedClaimed());
    RuleCheck.requireEqual(Rule.C17, "status of the entries nobody took", List.of(EntryStatus.PENDING,
        EntryStatus.PENDING, EntryStatus.PENDING), List.of(store.find(declined.id()).orElseThrow().status(),
            store.find(keyed.id()).orElseThrow().status(), store.find(later.id()).orElseThrow().status()));
    List<Claim> withinLease = store.claimDue(BOB, 10, LEASE);
    RuleCheck.requireEqual(Rule.C17, "claimed by Bob within the lease", Set.of(declined.id(), keyed.id()),
        ids(withinLease));
    withinLease.forEach(claim -> store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()));

    clock.advance(LEASE.plusSeconds(1));
    List<Claim> afterLease = store.claimDue(BOB, 10, LEASE);
    RuleCheck.requireEqual(Rule.C17, "claimed by Bob once the lease taken on append ran out", Set.of(taken.id()),
        ids(afterLease));
    RuleCheck.requireEqual(Rule.C17, "the first holder's delivery after the lease ran out",
        ClaimTransitionOutcome.STALE_CLAIM, store.tryMarkClaimDelivered(Claim.of(taken), DeliveryReceipt.none()).outcome());
    RuleCheck.require(Rule.C17, store.tryMarkClaimDelivered(afterLease.get(0), DeliveryReceipt.none()).isApplied(),
        () -> "Bob's delivery of the entry he claimed after the lease must be APPLIED");

    // Finished by their holder, entries taken on append must leave the due query for good: once their
    // leases would have run out, they must not stand before an entry appended later.
    TakingListener again = new TakingListener(ALICE, 3);
    List<OutboxEntry> takenAgain = new ArrayList<>();
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(again)) {
      for (int i = 0; i < 3; i++) {
        takenAgain.add(appendOne());
      }
    }
    for (OutboxEntry entry : takenAgain) {
      RuleCheck.require(Rule.C17, store.tryMarkClaimDelivered(Claim.of(entry), DeliveryReceipt.none()).isApplied(),
          () -> "the holder's delivery of an entry taken on append must be APPLIED; entry " + entry.id());
    }
    clock.advance(LEASE.plusSeconds(1));
    OutboxEntry appendedLater = appendOne();
    RuleCheck.requireEqual(Rule.C17, "a claim of one after three entries taken on append were delivered and their"
        + " leases would have run out", List.of(appendedLater.id()),
        store.claimDue(BOB, 1, LEASE).stream().map(Claim::entryId).toList());
  }

  /** Takes the first {@code room} entries offered, for {@code worker}, and keeps what it hears. */
  private static final class TakingListener implements CommitNotifications.Listener {

    private final WorkerId worker;
    private int room;
    private final List<EntryId> offered = new ArrayList<>();
    private final List<OutboxEntry> committedClaimed = new ArrayList<>();

    TakingListener(WorkerId worker, int room) {
      this.worker = worker;
      this.room = room;
    }

    @Override
    public synchronized Optional<CommitNotifications.ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
      offered.add(entry.id());
      if (room == 0) {
        return Optional.empty();
      }
      room--;
      return Optional.of(new CommitNotifications.ClaimOnAppend(worker, LEASE));
    }

    @Override
    public synchronized void entriesCommitted(List<OutboxEntry> appended) {
      appended.stream().filter(entry -> entry.currentClaim().isPresent()).forEach(committedClaimed::add);
    }

    synchronized List<EntryId> offered() {
      return List.copyOf(offered);
    }

    synchronized List<OutboxEntry> committedClaimed() {
      return List.copyOf(committedClaimed);
    }
  }

  /** How far store time may be from this machine's wall clock: the servers the suite runs against are on loopback. */
  private static final Duration SERVER_CLOCK_TOLERANCE = Duration.ofMinutes(2);

  /** How long C14 lets pass between its two reads of store time: long enough to tell moving from standing still. */
  private static final Duration STORE_TIME_GAP = Duration.ofMillis(300);

  @Test
  void c14_storeTimeMovesWithTheServersClockNotTheWorkers() throws Exception {
    assumeFixture(Rule.C14, FixtureCapability.STORE_TIME);
    MutableClock worker = new MutableClock(START);
    OutboxClaimOutcomeStore onStoreTime = fixture().openStoreOnStoreTime(new FixtureContext(worker, race));
    try {
      onStoreTime.appendAll(List.of(message("first"), message("second")));
      long firstRead = System.nanoTime();
      Instant first = onStoreTime.claimDue(ALICE, 1, LEASE).get(0).claimedAt();
      worker.advance(Duration.ofHours(1));
      // real time must pass for a server's clock to move: a bounded wait, not the staging of a race
      new CountDownLatch(1).await(STORE_TIME_GAP.toMillis(), TimeUnit.MILLISECONDS);
      Instant second = onStoreTime.claimDue(ALICE, 1, LEASE).get(0).claimedAt();
      Duration elapsed = Duration.ofNanos(System.nanoTime() - firstRead);

      RuleCheck.require(Rule.C14, Duration.between(first, Instant.now()).abs().compareTo(SERVER_CLOCK_TOLERANCE) < 0,
          () -> "the first claim on store time was taken at " + first + ", not near the server's time " + Instant.now()
              + " (the worker's clock said " + START + ")");
      Duration moved = Duration.between(first, second);
      RuleCheck.require(Rule.C14, moved.compareTo(STORE_TIME_GAP.multipliedBy(2).dividedBy(3)) >= 0
          && moved.compareTo(elapsed.plusMillis(500)) <= 0, () -> "two claims " + elapsed.toMillis() + " ms apart"
              + " (the worker's clock moved an hour meanwhile) took claim times " + moved.toMillis() + " ms apart: "
              + first + " and " + second);
    } finally {
      if (onStoreTime instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  @Test
  void c15_transitionsOnStoreTimeWriteTheServersTime() throws Exception {
    assumeFixture(Rule.C15, FixtureCapability.STORE_TIME);
    MutableClock hourAhead = new MutableClock(Instant.now().plus(Duration.ofHours(1)));
    OutboxClaimOutcomeStore onStoreTime = fixture().openStoreOnStoreTime(new FixtureContext(hourAhead, race));
    try {
      List<OutboxEntry> appended = onStoreTime.appendAll(List.of(message("saved"), message("failed"),
          message("delivered")));
      List<Claim> claims = onStoreTime.claimDue(ALICE, 3, LEASE);
      RuleCheck.requireEqual(Rule.C15, "test setup: claims", 3, claims.size());
      Claim saved = claimOf(claims, appended.get(0));
      OutboxEntry renewed = onStoreTime.trySaveClaim(saved, LeaseRenewal.of(LEASE)).entry();
      requireServerTime("the lease end a renewal wrote, less the lease", renewed.currentClaim().orElseThrow()
          .leaseUntil().minus(LEASE), hourAhead);
      requireServerTime("the update time a renewal wrote", renewed.updatedAt(), hourAhead);
      Instant retryAt = Instant.now().plusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
      OutboxEntry failed = onStoreTime.tryMarkClaimFailed(claimOf(claims, appended.get(1)),
          new RetryableFailure(retryAt, "down")).entry();
      requireServerTime("the update time a failure wrote", failed.updatedAt(), hourAhead);
      RuleCheck.requireEqual(Rule.C15, "the retry time a failure wrote (the one asked for)", Optional.of(retryAt),
          failed.dueAt());
      OutboxEntry delivered = onStoreTime.tryMarkClaimDelivered(claimOf(claims, appended.get(2)),
          DeliveryReceipt.none()).entry();
      requireServerTime("the update time a delivery wrote", delivered.updatedAt(), hourAhead);
    } finally {
      if (onStoreTime instanceof AutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  private static Claim claimOf(List<Claim> claims, OutboxEntry entry) {
    return claims.stream().filter(claim -> claim.entryId().equals(entry.id())).findFirst().orElseThrow();
  }

  private static void requireServerTime(String what, Instant written, MutableClock workersClock) {
    Instant server = Instant.now();
    RuleCheck.require(Rule.C15, Duration.between(written, server).abs().compareTo(SERVER_CLOCK_TOLERANCE) < 0,
        () -> what + " is " + written + ", not the server's time " + server + " (the worker's clock, an hour ahead,"
            + " said " + workersClock.instant() + ")");
  }
}
