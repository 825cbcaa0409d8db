package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Rules M1–M6: what an operator does with the outbox (stores that implement {@link OutboxOperations}). */
public abstract class OperationRules extends ConformanceTestBase {

  private OutboxOperations operations;

  @BeforeEach
  void requireOperations() {
    Assumptions.assumeTrue(store instanceof OutboxOperations,
        () -> fixture().backendName() + " does not implement OutboxOperations: M1-M6 do not apply");
    operations = (OutboxOperations) store;
  }

  /** An entry appended under {@code topic}, claimed and dead-lettered; returns the claim it had. */
  private Claim deadLetter(String topic) {
    OutboxEntry entry = store.append(message(topic));
    Claim claim = claimOnly(entry);
    store.tryMarkClaimDeadLettered(claim, new DeadLetter("poison"));
    return claim;
  }

  private Claim claimOnly(OutboxEntry entry) {
    List<Claim> claims = store.claimDue(ALICE, 100, LEASE);
    Claim mine = claims.stream().filter(claim -> claim.entryId().equals(entry.id())).findFirst()
        .orElseThrow(() -> new AssertionError("test setup: " + entry.id() + " was not claimed: " + claims));
    claims.stream().filter(claim -> claim != mine)
        .forEach(other -> store.tryMarkClaimFailed(other, new RetryableFailure(clock.instant().plusSeconds(3600), "later")));
    return mine;
  }

  private static Map<EntryStatus, Long> counts(long pending, long claimed, long failed, long delivered, long dead) {
    Map<EntryStatus, Long> expected = new EnumMap<>(EntryStatus.class);
    expected.put(EntryStatus.PENDING, pending);
    expected.put(EntryStatus.CLAIMED, claimed);
    expected.put(EntryStatus.FAILED, failed);
    expected.put(EntryStatus.DELIVERED, delivered);
    expected.put(EntryStatus.DEAD_LETTERED, dead);
    return expected;
  }

  @Test
  void m1_countsByStatusAndTheOldestDueAge() {
    RuleCheck.requireEqual(Rule.M1, "counts of an empty store", new StatusCounts(Map.of()), operations.countByStatus());
    RuleCheck.requireEqual(Rule.M1, "oldest due age of an empty store", Optional.empty(), operations.oldestDueAge());

    store.append(message("later").availableAt(clock.instant().plusSeconds(600)));
    RuleCheck.requireEqual(Rule.M1, "oldest due age while the only entry is not yet available", Optional.empty(),
        operations.oldestDueAge());

    OutboxEntry delivered = store.append(message("delivered"));
    store.tryMarkClaimDelivered(claimOnly(delivered), DeliveryReceipt.none());
    deadLetter("dead");
    OutboxEntry failed = store.append(message("failed"));
    store.tryMarkClaimFailed(claimOnly(failed), new RetryableFailure(clock.instant().plusSeconds(100), "down"));
    OutboxEntry held = store.append(message("held"));
    claimOnly(held);
    clock.advance(Duration.ofSeconds(5));
    store.append(message("pending"));
    RuleCheck.requireEqual(Rule.M1, "counts", new StatusCounts(counts(2, 1, 1, 1, 1)), operations.countByStatus());

    clock.advance(Duration.ofSeconds(7));
    RuleCheck.requireEqual(Rule.M1, "oldest due age: the pending entry appended 7 s ago, the claim's lease is live",
        Optional.of(Duration.ofSeconds(7)), operations.oldestDueAge());
    OutboxEntry pending = store.find(store.claimDue(ALICE, 100, LEASE).get(0).entryId()).orElseThrow();
    RuleCheck.requireEqual(Rule.M1, "oldest due age while both claims are live (" + pending.id() + " claimed too)",
        Optional.empty(), operations.oldestDueAge());
    clock.advance(Duration.ofSeconds(28));
    RuleCheck.requireEqual(Rule.M1, "oldest due age 10 s after the first claim's lease ended",
        Optional.of(Duration.ofSeconds(10)), operations.oldestDueAge());
  }

  @Test
  void m2_deadLettersArePagedInIdOrderByTopic() {
    List<EntryId> orders = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      orders.add(deadLetter("orders").entryId());
      deadLetter("payments");
    }
    OutboxEntry delivered = store.append(message("orders"));
    store.tryMarkClaimDelivered(claimOnly(delivered), DeliveryReceipt.none());

    List<EntryId> walked = new ArrayList<>();
    DeadLetterQuery page = DeadLetterQuery.firstPage(2).topic("orders");
    List<OutboxEntry> letters;
    int pages = 0;
    while (!(letters = operations.deadLetters(page)).isEmpty()) {
      pages++;
      RuleCheck.requireBoundedLoop(Rule.M2, pages, 10, "paging 5 dead letters of topic orders 2 at a time");
      int size = letters.size();
      RuleCheck.require(Rule.M2, size <= 2, () -> "a page of 2 held " + size);
      letters.forEach(letter -> walked.add(letter.id()));
      page = page.after(letters.get(letters.size() - 1).id());
    }
    RuleCheck.requireEqual(Rule.M2, "ids walked page by page, topic orders", orders.stream().sorted().toList(), walked);
    RuleCheck.requireEqual(Rule.M2, "pages of 2 for 5 dead letters", 3, pages);
    RuleCheck.requireEqual(Rule.M2, "dead letters of every topic", 10,
        operations.deadLetters(DeadLetterQuery.firstPage(100)).size());
    RuleCheck.require(Rule.M2, operations.deadLetters(DeadLetterQuery.firstPage(100)).stream()
        .allMatch(entry -> entry.status() == EntryStatus.DEAD_LETTERED), () -> "a listed entry is not dead-lettered");
  }

  @Test
  void m3_aRequeueIsFencedAndOnlyForDeadLetters() {
    Claim old = deadLetter("orders");
    OutboxEntry before = store.find(old.entryId()).orElseThrow();
    clock.advance(Duration.ofSeconds(1));

    RequeueResult result = operations.requeue(old.entryId());
    RuleCheck.requireEqual(Rule.M3, "outcome", RequeueResult.Outcome.REQUEUED, result.outcome());
    OutboxEntry requeued = result.entry().orElseThrow();
    RuleCheck.requireEqual(Rule.M3, "the entry returned is the stored one", store.find(old.entryId()), result.entry());
    RuleCheck.requireEqual(Rule.M3, "status", EntryStatus.PENDING, requeued.status());
    RuleCheck.requireEqual(Rule.M3, "due time", Optional.of(clock.instant()), requeued.dueAt());
    RuleCheck.requireEqual(Rule.M3, "claim generation", before.claimGeneration() + 1, requeued.claimGeneration());
    RuleCheck.requireEqual(Rule.M3, "attempts", 0, requeued.attempts());

    Unchanged untouched = capture(old.entryId());
    expectOutcome(Rule.M3, store.tryMarkClaimDelivered(old, DeliveryReceipt.none()), ClaimTransitionOutcome.STALE_CLAIM);
    expectUnchanged(Rule.M3, untouched);
    Claim again = claimOne(BOB);
    RuleCheck.requireEqual(Rule.M3, "claimed again", old.entryId(), again.entryId());
    RuleCheck.require(Rule.M3, again.token().generation() > old.token().generation(),
        () -> "the new claim's generation " + again.token().generation() + " must exceed " + old.token().generation());

    Unchanged claimed = capture(again.entryId());
    RuleCheck.requireEqual(Rule.M3, "requeue of a claimed entry", RequeueResult.Outcome.NOT_DEAD_LETTERED,
        operations.requeue(again.entryId()).outcome());
    expectUnchanged(Rule.M3, claimed);
    RuleCheck.requireEqual(Rule.M3, "requeue of no entry", RequeueResult.Outcome.MISSING,
        operations.requeue(EntryId.generate()).outcome());
  }

  @Test
  void m4_aRequeuedKeyedEntryHoldsItsKeyAndRequeueAllKeepsToItsTopic() {
    OutboxEntry first = store.append(message("orders").withOrderingKey("customer-1"));
    Claim firstClaim = claimOnly(first);
    store.tryMarkClaimDeadLettered(firstClaim, new DeadLetter("poison"));
    deadLetter("payments");
    OutboxEntry second = store.append(message("orders").withOrderingKey("customer-1"));
    operations.requeue(first.id());

    RuleCheck.requireEqual(Rule.M4, "claimable while the requeued first entry of customer-1 waits (not " + second.id()
        + ", its later entry)", Set.of(first.id()),
        store.claimDue(BOB, 100, LEASE).stream().map(Claim::entryId).collect(Collectors.toSet()));

    deadLetter("orders");
    deadLetter("orders");
    RuleCheck.requireEqual(Rule.M4, "requeued by requeueAll(topic orders)", 2L, RuleCheck.withinBound(Rule.M4,
        "requeueAll(topic orders)", () -> operations.requeueAll(DeadLetterQuery.firstPage(1).topic("orders"))));
    RuleCheck.requireEqual(Rule.M4, "dead letters left", List.of("payments"),
        operations.deadLetters(DeadLetterQuery.firstPage(100)).stream().map(entry -> entry.message().topic()).toList());
  }

  @Test
  void m4_requeueAllByTopicCrossesPagesWithoutCrossingIntoOtherTopics() {
    // ids follow append order: other topics' dead letters sort before, between and after the chosen topic's
    List<String> topics = List.of("alpha", "orders", "zulu", "orders", "orders", "alpha", "orders", "zulu", "orders",
        "alpha");
    Map<String, List<EntryId>> byTopic = new TreeMap<>();
    for (String topic : topics) {
      byTopic.computeIfAbsent(topic, t -> new ArrayList<>()).add(deadLetter(topic).entryId());
    }
    long requeued = RuleCheck.withinBound(Rule.M4, "requeueAll(topic orders, pages of 2)",
        () -> operations.requeueAll(DeadLetterQuery.firstPage(2).topic("orders")));
    RuleCheck.requireEqual(Rule.M4, "requeued by requeueAll(topic orders) in pages of 2 among alpha and zulu", 5L,
        requeued);
    for (Map.Entry<String, List<EntryId>> topic : byTopic.entrySet()) {
      EntryStatus expected = topic.getKey().equals("orders") ? EntryStatus.PENDING : EntryStatus.DEAD_LETTERED;
      for (EntryId id : topic.getValue()) {
        RuleCheck.requireEqual(Rule.M4, "status of " + topic.getKey() + " entry " + id, expected,
            store.find(id).orElseThrow().status());
      }
    }
  }

  @Test
  void m5_purgeNeverDeletesAnUnfinishedEntryHoweverOld() {
    // pending: available in an hour, so no claim below touches it; a day later it is long overdue
    OutboxEntry pending = store.append(message("pending").availableAt(clock.instant().plusSeconds(3600)));
    OutboxEntry claimed = store.append(message("claimed"));
    OutboxEntry failed = store.append(message("failed"));
    OutboxEntry finished = store.append(message("finished"));
    for (Claim claim : store.claimDue(ALICE, 10, LEASE)) {
      if (claim.entryId().equals(failed.id())) {
        store.tryMarkClaimFailed(claim, new RetryableFailure(clock.instant().plusSeconds(60), "down"));
      } else if (claim.entryId().equals(finished.id())) {
        store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());
      }
    }
    // a day later: every one of them was last written long before the purge age, none touched since
    clock.advance(Duration.ofDays(1));
    RuleCheck.requireEqual(Rule.M5, "countPurgeable(1 h) with one finished entry among old unfinished ones", 1L,
        operations.countPurgeable(Duration.ofHours(1)));
    long purged = RuleCheck.withinBound(Rule.M5, "purgeAll(1 h, 10)", () -> operations.purgeAll(Duration.ofHours(1), 10));
    RuleCheck.requireEqual(Rule.M5, "purged (the finished entry only)", 1L, purged);
    for (OutboxEntry unfinished : List.of(pending, claimed, failed)) {
      RuleCheck.require(Rule.M5, store.find(unfinished.id()).isPresent(), () -> "the purge deleted the unfinished entry "
          + unfinished.id() + " (" + unfinished.message().topic() + ", last written a day ago): an undelivered message"
          + " is lost");
    }
  }

  @Test
  void m5_purgeDeletesOldFinishedEntriesInBoundedBatches() {
    List<EntryId> oldFinished = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      OutboxEntry entry = store.append(message("old"));
      store.tryMarkClaimDelivered(claimOnly(entry), DeliveryReceipt.none());
      oldFinished.add(entry.id());
      clock.advance(Duration.ofSeconds(1));
    }
    oldFinished.add(deadLetter("old-dead").entryId());
    EntryId requeued = deadLetter("requeued").entryId();
    OutboxEntry pending = store.append(message("pending"));
    clock.advance(Duration.ofHours(2));
    operations.requeue(requeued);
    OutboxEntry recent = store.append(message("recent"));
    store.tryMarkClaimDelivered(claimOnly(recent), DeliveryReceipt.none());

    RuleCheck.requireEqual(Rule.M5, "countPurgeable (the dry run) before the purge", 4L,
        operations.countPurgeable(Duration.ofHours(1)));
    RuleCheck.requireEqual(Rule.M5, "deleted by the first batch of 2", 2, operations.purgeFinished(Duration.ofHours(1), 2));
    RuleCheck.require(Rule.M5, store.find(oldFinished.get(0)).isEmpty() && store.find(oldFinished.get(1)).isEmpty()
        && store.find(oldFinished.get(2)).isPresent(), () -> "the batch must take the two oldest finished entries");
    RuleCheck.requireEqual(Rule.M5, "deleted by purgeAll", 2L, RuleCheck.withinBound(Rule.M5, "purgeAll(1 h, 2)",
        () -> operations.purgeAll(Duration.ofHours(1), 2)));
    RuleCheck.requireEqual(Rule.M5, "entries left (pending, requeued, recent)",
        Set.of(pending.id(), requeued, recent.id()),
        Set.of(pending.id(), requeued, recent.id()).stream().filter(id -> store.find(id).isPresent()).collect(Collectors.toSet()));
    RuleCheck.require(Rule.M5, oldFinished.stream().allMatch(id -> store.find(id).isEmpty()),
        () -> "every old finished entry must be gone");
    RuleCheck.requireEqual(Rule.M5, "count after the purge", 3L, operations.countByStatus().total());
    RuleCheck.requireEqual(Rule.M5, "countPurgeable after the purge", 0L, operations.countPurgeable(Duration.ofHours(1)));
  }

  @Test
  void m6_badArgumentsAreRejectedBeforeAnyIo() {
    OutboxEntry delivered = store.append(message("old"));
    store.tryMarkClaimDelivered(claimOnly(delivered), DeliveryReceipt.none());
    Claim dead = deadLetter("dead");
    clock.advance(Duration.ofDays(1));

    RuleCheck.requireThrows(Rule.M6, IllegalArgumentException.class, "olderThan",
        () -> operations.purgeFinished(Duration.ofSeconds(-1), 10));
    RuleCheck.requireThrows(Rule.M6, IllegalArgumentException.class, "batchSize",
        () -> operations.purgeFinished(Duration.ZERO, 0));
    RuleCheck.requireThrows(Rule.M6, IllegalArgumentException.class, "batchSize",
        () -> operations.purgeAll(Duration.ZERO, OutboxOperations.MAX_BATCH + 1));
    RuleCheck.requireThrows(Rule.M6, NullPointerException.class, "olderThan", () -> operations.purgeFinished(null, 1));
    RuleCheck.requireThrows(Rule.M6, IllegalArgumentException.class, "olderThan",
        () -> operations.countPurgeable(Duration.ofSeconds(-1)));
    RuleCheck.requireThrows(Rule.M6, NullPointerException.class, "id", () -> operations.requeue(null));
    RuleCheck.requireThrows(Rule.M6, NullPointerException.class, "query", () -> operations.deadLetters(null));
    RuleCheck.requireThrows(Rule.M6, NullPointerException.class, "query", () -> operations.requeueAll(null));
    RuleCheck.requireThrows(Rule.M6, IllegalArgumentException.class, "limit", () -> DeadLetterQuery.firstPage(0));
    RuleCheck.requireEqual(Rule.M6, "entries after the rejected calls", 2L, operations.countByStatus().total());
    RuleCheck.requireEqual(Rule.M6, "still dead-lettered", EntryStatus.DEAD_LETTERED,
        store.find(dead.entryId()).orElseThrow().status());
  }
}
