package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.StoreCapability;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Rules E1–E2: ids, topics, ordering keys and worker ids are compared exactly, code point by code
 * point. Each value is set beside look-alikes that differ only in case, an accent or a trailing
 * space — what a case- or accent-insensitive or pad-space collation would take for one value.
 */
public abstract class ExactValueRules extends ConformanceTestBase {

  /** A value and the look-alikes of it that are different values. */
  private static List<String> lookAlikes(String value) {
    return List.of(value, value.toUpperCase(Locale.ROOT), accented(value), value + " ");
  }

  /** The value with its first {@code e} (or {@code a}) accented, as MariaDB's general collation ignores. */
  private static String accented(String value) {
    int e = value.indexOf('e');
    if (e >= 0) {
      return value.substring(0, e) + "é" + value.substring(e + 1);
    }
    int a = value.indexOf('a');
    return a >= 0 ? value.substring(0, a) + "á" + value.substring(a + 1) : value + "é";
  }

  @Test
  void e1_idsKeysAndOwnersThatDifferOnlyInCaseAccentOrTrailingSpaceAreDifferent() {
    // ids hold only ASCII letters, digits and . _ : - (EntryId refuses accents and spaces), so case is what can differ
    OutboxEntry entry = appendOne();
    EntryId upper = EntryId.of(entry.id().value().toUpperCase(Locale.ROOT));
    RuleCheck.require(Rule.E1, !upper.equals(entry.id()), () -> "test setup: the id " + entry.id() + " has no letter");
    RuleCheck.requireEqual(Rule.E1, "find(" + upper + ") beside the entry " + entry.id(), Optional.empty(),
        store.find(upper));
    RuleCheck.requireEqual(Rule.E1, "delete(" + upper + ") beside the entry " + entry.id(), false, store.delete(upper));
    store.delete(entry.id());

    Map<String, EntryId> firstOfKey = new TreeMap<>();
    for (String key : lookAlikes("order-key")) {
      firstOfKey.put(key, store.append(message("orders").withOrderingKey(key)).id());
    }
    if (store.capabilities().contains(StoreCapability.CLAIM_BY_KEY)) {
      // each appended after a look-alike: a probe that matched loosely would find that earlier entry first
      List<String> keys = lookAlikes("order-key");
      for (String asked : List.of(keys.get(1), keys.get(3))) {
        RuleCheck.requireEqual(Rule.E1, "claimNextOfKeys([\"" + asked + "\"]) beside the keys " + keys,
            List.of(firstOfKey.remove(asked)),
            store.claimNextOfKeys(ALICE, List.of(asked), LEASE).stream().map(Claim::entryId).toList());
      }
    }
    Set<EntryId> claimed = store.claimDue(ALICE, 10, LEASE).stream().map(Claim::entryId).collect(Collectors.toSet());
    RuleCheck.requireEqual(Rule.E1, "claimable entries of the ordering keys " + firstOfKey.keySet()
        + " (each its key's first, unless handed out by key above)", Set.copyOf(firstOfKey.values()), claimed);

    Claim held = claimFresh();
    Claim forged = Claim.of(held.snapshot().toBuilder()
        .currentClaim(new CurrentClaim(WorkerId.of(held.owner().value().toUpperCase(Locale.ROOT)), held.token(),
            held.claimedAt(), held.leaseUntil()))
        .build());
    Unchanged before = capture(held.entryId());
    expectOutcome(Rule.E1, store.tryMarkClaimDelivered(forged, DeliveryReceipt.none()), ClaimTransitionOutcome.STALE_CLAIM);
    expectUnchanged(Rule.E1, before);
  }

  /** A claim of Bob's on a fresh unkeyed entry (every keyed entry above is Alice's). */
  private Claim claimFresh() {
    OutboxEntry fresh = appendOne();
    return store.claimDue(BOB, 10, LEASE).stream().filter(claim -> claim.entryId().equals(fresh.id())).findFirst()
        .orElseThrow(() -> new AssertionError("test setup: " + fresh.id() + " was not claimed"));
  }

  @Test
  void e2_topicFiltersAndRequeueByTopicMatchTheTopicExactly() {
    Assumptions.assumeTrue(store instanceof OutboxOperations,
        () -> fixture().backendName() + " does not implement OutboxOperations: E2 does not apply");
    OutboxOperations operations = (OutboxOperations) store;
    Map<String, EntryId> byTopic = new TreeMap<>();
    List<String> topics = new ArrayList<>(lookAlikes("orders"));
    for (String topic : topics) {
      OutboxEntry entry = store.append(message(topic));
      byTopic.put(topic, entry.id());
    }
    for (Claim claim : store.claimDue(ALICE, 10, LEASE)) {
      store.tryMarkClaimDeadLettered(claim, new DeadLetter("poison"));
    }
    for (String topic : topics) {
      RuleCheck.requireEqual(Rule.E2, "dead letters of topic \"" + topic + "\"", List.of(byTopic.get(topic)),
          operations.deadLetters(DeadLetterQuery.firstPage(100).topic(topic)).stream().map(OutboxEntry::id).toList());
    }
    String upper = topics.get(1);
    RuleCheck.requireEqual(Rule.E2, "requeued by requeueAll(topic \"" + upper + "\")", 1L,
        operations.requeueAll(DeadLetterQuery.firstPage(100).topic(upper)));
    RuleCheck.requireEqual(Rule.E2, "dead letters left after requeueing topic \"" + upper + "\"",
        byTopic.entrySet().stream().filter(topic -> !topic.getKey().equals(upper)).map(Map.Entry::getValue).sorted()
            .toList(),
        operations.deadLetters(DeadLetterQuery.firstPage(100)).stream().map(OutboxEntry::id).sorted().toList());
  }
}
