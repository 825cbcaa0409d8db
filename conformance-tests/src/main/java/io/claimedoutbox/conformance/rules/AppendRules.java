package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import io.claimedoutbox.port.OutboxStoreListener;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Rules A1–A5: appending, reading and deleting entries, and the listeners hearing every call. */
public abstract class AppendRules extends ConformanceTestBase {

  @Test
  void a1_appendedMessageIsReadBackUnchanged() {
    byte[] payload = new byte[300];
    for (int i = 0; i < payload.length; i++) {
      payload[i] = (byte) i;
    }
    OutboxMessage message = OutboxMessage.of("billing.invoice-issued", payload)
        .withOrderingKey("customer-17")
        .withHeader("trace-id", "abc=1&x y/ü")
        .withHeader("empty", "")
        .availableAt(START.plusMillis(1500));

    OutboxEntry appended = store.append(message);

    RuleCheck.requireEqual(Rule.A1, "status", EntryStatus.PENDING, appended.status());
    RuleCheck.requireEqual(Rule.A1, "revision", 1L, appended.revision());
    RuleCheck.requireEqual(Rule.A1, "attempts", 0, appended.attempts());
    RuleCheck.require(Rule.A1, java.util.Arrays.equals(payload, appended.message().payload()),
        () -> "payload bytes differ");
    RuleCheck.requireEqual(Rule.A1, "headers", message.headers(), appended.message().headers());
    RuleCheck.requireEqual(Rule.A1, "ordering key", Optional.of("customer-17"), appended.message().orderingKey());
    RuleCheck.requireEqual(Rule.A1, "available time", START.plusMillis(1500), appended.availableAt());
    RuleCheck.requireEqual(Rule.A1, "created time", START, appended.createdAt());
    RuleCheck.requireEqual(Rule.A1, "entry read back", Optional.of(appended), store.find(appended.id()));
    RuleCheck.requireEqual(Rule.A1, "raw revision", 1L, raw(appended.id()).revision());
  }

  @Test
  void a2_appendAllStoresBatchInOrder() {
    List<OutboxMessage> batch = IntStream.range(0, 5)
        .mapToObj(i -> OutboxMessage.of("t" + i, ("m" + i).getBytes(StandardCharsets.UTF_8)))
        .toList();

    List<OutboxEntry> stored = store.appendAll(batch);

    RuleCheck.requireEqual(Rule.A2, "number of entries", 5, stored.size());
    RuleCheck.requireEqual(Rule.A2, "topics in order", List.of("t0", "t1", "t2", "t3", "t4"),
        stored.stream().map(entry -> entry.message().topic()).toList());
    RuleCheck.requireEqual(Rule.A2, "distinct ids", 5L,
        stored.stream().map(OutboxEntry::id).distinct().count());
    for (OutboxEntry entry : stored) {
      RuleCheck.requireEqual(Rule.A2, "stored entry", Optional.of(entry), store.find(entry.id()));
    }
    RuleCheck.requireEqual(Rule.A2, "raw row count", 5L, fixture().countRaw());
    RuleCheck.requireEqual(Rule.A2, "empty batch result", List.of(), store.appendAll(List.of()));
  }

  @Test
  void a3_deleteRemovesRowWhateverItsStatus() {
    OutboxEntry pending = appendOne();
    OutboxEntry claimed = claimOne(ALICE).snapshot();
    OutboxEntry other = appendOne();

    RuleCheck.require(Rule.A3, store.delete(claimed.id()), () -> "delete of a CLAIMED row returned false");
    RuleCheck.requireEqual(Rule.A3, "entry after delete", Optional.empty(), store.find(claimed.id()));
    RuleCheck.require(Rule.A3, !store.delete(claimed.id()), () -> "second delete returned true");
    RuleCheck.requireEqual(Rule.A3, "raw row count", 1L, fixture().countRaw());
    RuleCheck.requireEqual(Rule.A3, "untouched entry", Optional.of(other), store.find(other.id()));
    RuleCheck.require(Rule.A3, pending.id().equals(claimed.id()), () -> "setup claimed another entry");
  }

  @Test
  void a4_findOfUnknownIdIsEmpty() {
    appendOne();
    RuleCheck.requireEqual(Rule.A4, "entry", Optional.empty(), store.find(EntryId.of("no-such-entry")));
  }

  @Test
  void a5_everyCallIsHeardOnceByTheStoresListeners() {
    List<String> heard = new CopyOnWriteArrayList<>();
    OutboxStoreListener.Registration registration = store.listen(call -> new OutboxStoreListener.CallListener() {
      @Override
      public void claimed(List<Claim> claims, long nanos) {
        heard.add(call.kind().tagValue() + " " + claims.size());
      }

      @Override
      public void transitioned(List<ClaimTransitionResult> results, long nanos) {
        results.forEach(result -> heard.add("transition " + result.outcome().tagValue()));
      }

      @Override
      public void appended(List<OutboxEntry> entries, long nanos) {
        heard.add("append " + entries.size());
      }

      @Override
      public void found(Optional<OutboxEntry> entry, long nanos) {
        heard.add("find " + entry.isPresent());
      }

      @Override
      public void deleted(boolean existed, long nanos) {
        heard.add("delete " + existed);
      }

      @Override
      public void failed(RuntimeException failure, long nanos) {
        heard.add("failed " + failure);
      }
    });

    store.appendAll(List.of(OutboxMessage.of("t", new byte[] {1}), OutboxMessage.of("t", new byte[] {2})));
    RuleCheck.requireEqual(Rule.A5, "heard of the append", List.of("append 2"), List.copyOf(heard));
    heard.clear();
    List<Claim> claims = store.claimDue(ALICE, 5, LEASE);
    RuleCheck.requireEqual(Rule.A5, "heard of the claim", List.of("claim_due 2"), List.copyOf(heard));
    heard.clear();
    store.tryTransitionAll(claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList());
    // a store that reads before it writes may be heard reading too
    RuleCheck.requireEqual(Rule.A5, "heard of the batch, reads aside", List.of("transition applied", "transition applied"),
        heard.stream().filter(line -> !line.startsWith("find ")).toList());
    heard.clear();
    EntryId first = claims.get(0).entryId();
    store.find(first);
    store.delete(first);
    RuleCheck.requireEqual(Rule.A5, "heard of the find and the delete", List.of("find true", "delete true"),
        List.copyOf(heard));
    heard.clear();
    RuleCheck.require(Rule.A5, rejects(() -> store.claimDue(ALICE, 0, LEASE)), () -> "a claim of 0 entries was accepted");
    RuleCheck.requireEqual(Rule.A5, "heard of a rejected argument", List.of(), List.copyOf(heard));
    registration.close();
    store.append(OutboxMessage.of("t", new byte[] {3}));
    RuleCheck.requireEqual(Rule.A5, "heard after the registration closed", List.of(), List.copyOf(heard));
  }

  private static boolean rejects(Runnable call) {
    try {
      call.run();
      return false;
    } catch (IllegalArgumentException rejected) {
      return true;
    }
  }
}
