package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.Instants;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Rules B1–B6: bad input is rejected before any I/O; bad stored data is reported by entry. */
public abstract class BadInputRules extends ConformanceTestBase {

  private void expectNothingWritten(Rule rule, long rowsBefore, RawEntryState... rowsBeforeCall) {
    RuleCheck.requireEqual(rule, "raw row count after rejected input", rowsBefore, fixture().countRaw());
    Arrays.stream(rowsBeforeCall).forEach(row -> expectUnchanged(rule, row));
  }

  @Test
  void b1_claimDueRejectsBadArguments() {
    OutboxEntry due = appendOne();
    RawEntryState before = raw(due.id());

    RuleCheck.requireThrows(Rule.B1, NullPointerException.class, "worker",
        () -> store.claimDue(null, 1, LEASE));
    RuleCheck.requireThrows(Rule.B1, IllegalArgumentException.class, "maxEntries",
        () -> store.claimDue(ALICE, 0, LEASE));
    RuleCheck.requireThrows(Rule.B1, IllegalArgumentException.class, "maxEntries",
        () -> store.claimDue(ALICE, -5, LEASE));
    RuleCheck.requireThrows(Rule.B1, NullPointerException.class, "lease",
        () -> store.claimDue(ALICE, 1, null));
    RuleCheck.requireThrows(Rule.B1, IllegalArgumentException.class, "lease",
        () -> store.claimDue(ALICE, 1, Duration.ZERO));
    RuleCheck.requireThrows(Rule.B1, IllegalArgumentException.class, "lease",
        () -> store.claimDue(ALICE, 1, Duration.ofSeconds(-1)));
    String key = "customer-1";
    RuleCheck.requireThrows(Rule.B1, NullPointerException.class, "worker",
        () -> store.claimNextOfKeys(null, List.of(key), LEASE));
    RuleCheck.requireThrows(Rule.B1, NullPointerException.class, "orderingKeys",
        () -> store.claimNextOfKeys(ALICE, null, LEASE));
    RuleCheck.requireThrows(Rule.B1, NullPointerException.class, "orderingKeys[1]",
        () -> store.claimNextOfKeys(ALICE, Arrays.asList(key, null), LEASE));
    RuleCheck.requireThrows(Rule.B1, IllegalArgumentException.class, "orderingKeys[0]",
        () -> store.claimNextOfKeys(ALICE, List.of(" "), LEASE));
    RuleCheck.requireThrows(Rule.B1, NullPointerException.class, "lease",
        () -> store.claimNextOfKeys(ALICE, List.of(key), null));

    expectNothingWritten(Rule.B1, 1, before);
  }

  @Test
  void b2_transitionsRejectNullArguments() {
    Claim claim = appendAndClaim(ALICE);
    RawEntryState before = raw(claim.entryId());

    for (TransitionKind kind : TransitionKind.values()) {
      RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "claim",
          () -> store.tryTransition(null, requestFor(kind)));
      RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "request",
          () -> store.tryTransition(claim, null));
    }
    RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "claim",
        () -> store.tryMarkClaimDelivered(null, DeliveryReceipt.none()));
    RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "request",
        () -> store.tryMarkClaimDelivered(claim, null));
    RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "claim",
        () -> store.markClaimDelivered(null, DeliveryReceipt.none()));
    RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "request",
        () -> store.saveClaim(claim, null));
    RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "id", () -> store.find(null));
    RuleCheck.requireThrows(Rule.B2, NullPointerException.class, "id", () -> store.delete(null));

    expectNothingWritten(Rule.B2, 1, before);
  }

  @Test
  void b3_appendRejectsNullMessagesAndWritesNoneOfTheBatch() {
    OutboxEntry existing = appendOne();
    RawEntryState before = raw(existing.id());

    RuleCheck.requireThrows(Rule.B3, NullPointerException.class, "message", () -> store.append(null));
    RuleCheck.requireThrows(Rule.B3, NullPointerException.class, "messages",
        () -> store.appendAll(null));
    RuleCheck.requireThrows(Rule.B3, NullPointerException.class, "messages[2]",
        () -> store.appendAll(Arrays.asList(message("a"), message("b"), null, message("d"))));

    expectNothingWritten(Rule.B3, 1, before);
  }

  @Test
  void b4_inconsistentClaimCannotBeBuilt() {
    Claim claim = appendAndClaim(ALICE);
    OutboxEntry other = appendOne();

    RuleCheck.requireThrows(Rule.B4, IllegalArgumentException.class, "snapshot",
        () -> new Claim(claim.entryId(), claim.owner(), claim.token(), claim.claimedAt(),
            claim.leaseUntil(), claim.attempt(), other));
    RuleCheck.requireThrows(Rule.B4, IllegalArgumentException.class, "snapshot",
        () -> new Claim(claim.entryId(), BOB, claim.token(), claim.claimedAt(),
            claim.leaseUntil(), claim.attempt(), claim.snapshot()));
    RuleCheck.requireThrows(Rule.B4, IllegalArgumentException.class, "payload",
        () -> OutboxMessage.of("big", new byte[OutboxMessage.MAX_PAYLOAD_BYTES + 1]));
  }

  @Test
  void b5_undecodableRowIsReportedByEntry() {
    Claim claim = appendAndClaim(ALICE);
    clock.advance(LEASE);
    fixture().corrupt(claim.entryId());

    expectUndecodable(claim.entryId(), "find", () -> store.find(claim.entryId()));
    expectUndecodable(claim.entryId(), "claimDue", () -> store.claimDue(BOB, 10, LEASE));
    expectUndecodable(claim.entryId(), "tryMarkClaimDelivered",
        () -> store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()));
    RuleCheck.requireEqual(Rule.B5, "raw rows (the damaged row stays for repair)", 1L,
        fixture().countRaw());
  }

  private void expectUndecodable(EntryId id, String call, Supplier<?> action) {
    UndecodableEntryException thrown = RuleCheck.requireThrows(
        Rule.B5, UndecodableEntryException.class, id.value(), action::get);
    RuleCheck.requireEqual(Rule.B5, call + " exception's entry id", id, thrown.entryId());
  }

  @Test
  void b6_unreachableBackendStillRejectsBadInputFirst() {
    assumeFixture(Rule.B6, FixtureCapability.UNREACHABLE_BACKEND);
    Claim claim = appendAndClaim(ALICE);
    OutboxClaimOutcomeStore down = fixture().openUnreachableStore(new FixtureContext(clock, race))
        .orElseThrow(() -> new AssertionError("fixture declares UNREACHABLE_BACKEND but built no store"));
    try {
      RuleCheck.requireThrows(Rule.B6, IllegalArgumentException.class, "maxEntries",
          () -> down.claimDue(ALICE, 0, LEASE));
      RuleCheck.requireThrows(Rule.B6, NullPointerException.class, "claim",
          () -> down.tryTransition(null, DeliveryReceipt.none()));
      RuleCheck.requireThrows(Rule.B6, NullPointerException.class, "messages[0]",
          () -> down.appendAll(Arrays.asList((OutboxMessage) null)));
      for (Runnable call : List.<Runnable>of(
          () -> down.claimDue(ALICE, 1, LEASE),
          () -> down.find(claim.entryId()),
          () -> down.tryMarkClaimDelivered(claim, DeliveryReceipt.none()))) {
        RuleCheck.requireThrows(Rule.B6, OutboxStoreException.class, "", call);
      }
    } finally {
      if (down instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception ignored) {
          // a store over a dead backend may fail to close; that is not what B6 checks
        }
      }
    }
  }

  @Test
  void b7_limitsAreRejectedBeforeAnyWrite() {
    Claim claim = appendAndClaim(ALICE);
    appendOne();
    RawEntryState before = raw(claim.entryId());
    long rows = fixture().countRaw();

    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "maxEntries",
        () -> store.claimDue(BOB, Integer.MAX_VALUE, LEASE));
    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "maxEntries",
        () -> store.claimDue(BOB, StoreArguments.MAX_BATCH + 1, LEASE));
    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "lease",
        () -> store.claimDue(BOB, 1, Duration.ofSeconds(Long.MAX_VALUE)));
    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "extension",
        () -> store.trySaveClaim(claim, LeaseRenewal.of(Instants.MAX_LEASE.plusMillis(1))));
    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "retryAt",
        () -> store.tryMarkClaimFailed(claim, new RetryableFailure(Instant.MAX, "never")));
    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "availableAt",
        () -> store.append(message("orders").availableAt(Instant.parse("+10000-01-01T00:00:00Z"))));
    // distinct entries: a batch repeating one entry would meet the duplicate check first
    List<ClaimTransition> tooMany = new ArrayList<>();
    for (int i = 0; i <= StoreArguments.MAX_BATCH; i++) {
      OutboxEntry lookAlike = claim.snapshot().toBuilder().id(EntryId.of(claim.entryId().value() + "-" + i)).build();
      tooMany.add(new ClaimTransition(Claim.of(lookAlike), DeliveryReceipt.none()));
    }
    RuleCheck.requireThrows(Rule.B7, IllegalArgumentException.class, "transitions",
        () -> store.tryTransitionAll(tooMany));

    expectUnchanged(Rule.B7, before);
    RuleCheck.requireEqual(Rule.B7, "raw row count", rows, fixture().countRaw());
    RuleCheck.requireEqual(Rule.B7, "a claim at the largest batch and lease, with one entry due", 1,
        store.claimDue(BOB, StoreArguments.MAX_BATCH, Instants.MAX_LEASE).size());
  }

  @Test
  void b8_textIsStoredExactlyOrRejectedWhenBuilt() {
    RuleCheck.requireThrows(Rule.B8, IllegalArgumentException.class, "topic",
        () -> OutboxMessage.of("orders\u0000placed", new byte[] {1}));
    RuleCheck.requireThrows(Rule.B8, IllegalArgumentException.class, "orderingKey",
        () -> OutboxMessage.of("orders", new byte[] {1}).withOrderingKey("key\u0000"));
    RuleCheck.requireThrows(Rule.B8, IllegalArgumentException.class, "topic",
        () -> OutboxMessage.of("orders\uD800", new byte[] {1}));
    RuleCheck.requireThrows(Rule.B8, IllegalArgumentException.class, "headerValue",
        () -> message("orders").withHeader("trace", "x\uDC00y"));
    RuleCheck.requireThrows(Rule.B8, IllegalArgumentException.class, "headerName",
        () -> message("orders").withHeader("na\u0000me", "v"));
    RuleCheck.requireThrows(Rule.B8, IllegalArgumentException.class, "workerId",
        () -> WorkerId.of("worker\uDBFF"));

    String unusual = "Zürich → 東京 😀 e\u0301 \u2028 \"quoted\" & = % +";
    OutboxEntry appended = store.append(OutboxMessage.of(unusual, new byte[] {0, 1, -1})
        .withOrderingKey(unusual).withHeader(unusual, unusual));
    RuleCheck.requireEqual(Rule.B8, "entry read back with unusual text", Optional.of(appended),
        store.find(appended.id()));
    Claim claim = claimOne(ALICE);
    ClaimTransitionResult failed = store.tryMarkClaimFailed(claim,
        new RetryableFailure(clock.instant(), "broker said \u0000 and \uD800 then 😀"));
    expectOutcome(Rule.B8, failed, ClaimTransitionOutcome.APPLIED);
    RuleCheck.requireEqual(Rule.B8, "stored error (NUL and the lone surrogate replaced by U+FFFD)",
        Optional.of("broker said \uFFFD and \uFFFD then 😀"), failed.entry().lastError());
    RuleCheck.requireEqual(Rule.B8, "entry read back after the failure", Optional.of(failed.entry()),
        store.find(claim.entryId()));
  }

  @Test
  void b9_claimBatchMeetingADamagedRowFailsWhole() {
    List<OutboxEntry> entries = store.appendAll(List.of(message("a"), message("b"), message("c"), message("d")));
    EntryId damaged = entries.get(2).id();
    fixture().corrupt(damaged);
    List<RawEntryState> before = entries.stream().map(OutboxEntry::id).filter(id -> !id.equals(damaged))
        .map(this::raw).toList();

    UndecodableEntryException thrown = RuleCheck.requireThrows(Rule.B9, UndecodableEntryException.class,
        damaged.value(), () -> store.claimDue(ALICE, 10, LEASE));

    RuleCheck.requireEqual(Rule.B9, "entry named by the exception", damaged, thrown.entryId());
    before.forEach(row -> expectUnchanged(Rule.B9, row));
    RuleCheck.requireThrows(Rule.B9, UndecodableEntryException.class, damaged.value(),
        () -> store.claimDue(ALICE, 10, LEASE));
    before.forEach(row -> expectUnchanged(Rule.B9, row));
  }

  @Test
  void b10_transitionBatchMeetingADamagedRowNeverWritesSilently() {
    List<OutboxEntry> entries = store.appendAll(List.of(message("a"), message("b"), message("c")));
    List<Claim> claims = store.claimDue(ALICE, 10, LEASE);
    RuleCheck.requireEqual(Rule.B10, "test setup: claims", 3, claims.size());
    EntryId damaged = entries.get(1).id();
    fixture().corrupt(damaged);
    List<RawEntryState> before = claims.stream().map(claim -> raw(claim.entryId())).toList();
    List<ClaimTransition> batch = claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none()))
        .toList();

    RuntimeException thrown;
    try {
      store.tryTransitionAll(batch);
      throw new AssertionError(Rule.B10.violation("a batch with the damaged row " + damaged + " answered instead of"
          + " failing"));
    } catch (RuntimeException failure) {
      thrown = failure;
    }

    UndecodableEntryException named = undecodableIn(thrown);
    RuleCheck.require(Rule.B10, named != null && damaged.equals(named.entryId()), () -> "the failure must be (or be"
        + " caused by) UndecodableEntryException naming " + damaged + ", but was " + thrown);
    for (RawEntryState row : before) {
      RawEntryState now = raw(EntryId.of(row.id()));
      if (now.equals(row)) {
        continue;
      }
      RuleCheck.require(Rule.B10, !row.id().equals(damaged.value()), () -> "the damaged row changed: " + now);
      Optional<String> reported = thrown instanceof TransitionOutcomeUnknownException unknown
          ? unknown.sentWriteStamp(EntryId.of(row.id())).map(Object::toString) : Optional.empty();
      RuleCheck.require(Rule.B10, reported.isPresent() && reported.get().equals(now.writeStamp()), () -> "entry "
          + row.id() + " was written (" + now + ") but the failure does not report that write's stamp: a caller would"
          + " ask again and take its own write for somebody else's");
    }
  }

  private static UndecodableEntryException undecodableIn(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof UndecodableEntryException undecodable) {
        return undecodable;
      }
    }
    return null;
  }
}
