package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
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
}
