package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.WorkerId;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import io.claimedoutbox.port.StoreCapability;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Rules O1–O6: ordering keys. */
public abstract class OrderingRules extends ConformanceTestBase {

  private OutboxEntry keyed(String key, String topic) {
    return store.append(message(topic).withOrderingKey(key));
  }

  private Set<EntryId> claimAll(String worker) {
    return store.claimDue(WorkerId.of(worker), 100, LEASE).stream()
        .map(Claim::entryId).collect(Collectors.toSet());
  }

  private Claim claimOf(List<Claim> claims, OutboxEntry entry) {
    return claims.stream().filter(claim -> claim.entryId().equals(entry.id())).findFirst().orElseThrow(
        () -> new AssertionError(Rule.O1.violation(entry.id() + " was not claimed: " + claims)));
  }

  @Test
  void o1_oneKeyIsClaimedOneEntryAtATimeInAppendOrder() {
    List<OutboxEntry> first = store.appendAll(List.of(message("a1").withOrderingKey("customer-1"),
        message("a2").withOrderingKey("customer-1"), message("a3").withOrderingKey("customer-1")));
    OutboxEntry otherKey = keyed("customer-2", "b1");
    OutboxEntry unkeyed = store.append(message("free"));

    List<Claim> claims = store.claimDue(ALICE, 100, LEASE);
    RuleCheck.requireEqual(Rule.O1, "claimed while nothing is in flight",
        Set.of(first.get(0).id(), otherKey.id(), unkeyed.id()),
        claims.stream().map(Claim::entryId).collect(Collectors.toSet()));
    RuleCheck.requireEqual(Rule.O1, "claimed by another worker while the first of customer-1 is held",
        Set.of(), claimAll("worker-carol"));

    store.tryMarkClaimDelivered(claimOf(claims, first.get(0)), DeliveryReceipt.none());
    RuleCheck.requireEqual(Rule.O1, "claimed after the first of customer-1 was delivered",
        Set.of(first.get(1).id()), claimAll("worker-carol"));
  }

  @Test
  void o2_aFailedEntryHoldsItsKeyAndADeadLetterReleasesIt() {
    OutboxEntry head = keyed("customer-1", "a1");
    OutboxEntry next = keyed("customer-1", "a2");
    Claim claim = claimOne(ALICE);
    RuleCheck.requireEqual(Rule.O2, "the first claim", head.id(), claim.entryId());

    store.tryMarkClaimFailed(claim, new RetryableFailure(clock.instant().plusSeconds(60), "broker down"));
    RuleCheck.requireEqual(Rule.O2, "claimable while the first waits for its retry", Set.of(), claimAll("worker-bob"));

    clock.advance(Duration.ofSeconds(61));
    Claim retry = claimOne(BOB);
    RuleCheck.requireEqual(Rule.O2, "claimed once the retry is due", head.id(), retry.entryId());
    store.tryMarkClaimDeadLettered(retry, new DeadLetter("poison"));
    RuleCheck.requireEqual(Rule.O2, "claimable after the first was dead-lettered", Set.of(next.id()),
        claimAll("worker-bob"));
  }

  @Test
  void o3_anExpiredLeaseKeepsTheOrder() {
    OutboxEntry head = keyed("customer-1", "a1");
    keyed("customer-1", "a2");
    claimOne(ALICE);
    clock.advance(LEASE.plusSeconds(1));

    RuleCheck.requireEqual(Rule.O3, "claimed after the lease of the first expired", Set.of(head.id()),
        claimAll("worker-bob"));
  }

  @Test
  void o4_heldBackEntriesNeverHideClaimableOnes() {
    keyed("customer-1", "a1");
    OutboxEntry failing = keyed("customer-2", "b1");
    List<Claim> firstClaims = store.claimDue(ALICE, 2, LEASE);
    store.tryMarkClaimFailed(claimOf(firstClaims, failing), new RetryableFailure(clock.instant().plusSeconds(5), "later"));
    store.appendAll(IntStream.range(0, 50)
        .mapToObj(i -> message("later-" + i).withOrderingKey(i % 2 == 0 ? "customer-1" : "customer-2"))
        .toList());
    OutboxEntry unkeyed = store.append(message("free"));
    OutboxEntry otherKey = keyed("customer-3", "c1");

    RuleCheck.requireEqual(Rule.O4, "claimed in a batch of 2 behind 50 held-back entries",
        Set.of(unkeyed.id(), otherKey.id()), ids(store.claimDue(BOB, 2, LEASE)));
    clock.advance(Duration.ofSeconds(6));
    RuleCheck.requireEqual(Rule.O4, "claimed in a batch of 2 once the failed first entry's retry is due, its"
        + " retry later than its key's 25 later entries", Set.of(failing.id()), ids(store.claimDue(BOB, 2, LEASE)));
  }

  @Test
  void o5_claimNextOfKeyHandsOutOnlyTheKeysNextClaimableEntry() {
    assumeClaimsByKey();
    OutboxEntry first = keyed("customer-1", "a1");
    OutboxEntry second = keyed("customer-1", "a2");
    OutboxEntry otherKey = keyed("customer-2", "b1");

    List<Claim> taken = store.claimNextOfKey(ALICE, "customer-1", LEASE);
    RuleCheck.requireEqual(Rule.O5, "claimed by key while nothing is in flight", Set.of(first.id()), ids(taken));
    RuleCheck.requireEqual(Rule.O5, "claimed by key while the first is held", Set.of(),
        ids(store.claimNextOfKey(BOB, "customer-1", LEASE)));
    RuleCheck.requireEqual(Rule.O5, "claimed for a key with no entries", Set.of(),
        ids(store.claimNextOfKey(BOB, "customer-9", LEASE)));

    store.tryMarkClaimFailed(taken.get(0), new RetryableFailure(clock.instant().plusSeconds(60), "broker down"));
    RuleCheck.requireEqual(Rule.O5, "claimed by key while the first waits for its retry", Set.of(),
        ids(store.claimNextOfKey(BOB, "customer-1", LEASE)));
    clock.advance(Duration.ofSeconds(61));
    List<Claim> retried = store.claimNextOfKey(BOB, "customer-1", LEASE);
    RuleCheck.requireEqual(Rule.O5, "claimed by key once the retry is due", Set.of(first.id()), ids(retried));
    RuleCheck.require(Rule.O5, retried.get(0).token().generation() > taken.get(0).token().generation(),
        () -> "a re-claim by key must mint a newer token generation, got " + retried.get(0).token());

    store.tryMarkClaimDelivered(retried.get(0), DeliveryReceipt.none());
    List<Claim> next = store.claimNextOfKey(BOB, "customer-1", LEASE);
    RuleCheck.requireEqual(Rule.O5, "claimed by key after the first was delivered", Set.of(second.id()), ids(next));
    RuleCheck.requireEqual(Rule.O5, "claimed by claimDue meanwhile", Set.of(otherKey.id()), claimAll("worker-carol"));
    clock.advance(LEASE.plusSeconds(1));
    RuleCheck.requireEqual(Rule.O5, "claimed by key after the lease of the second expired", Set.of(second.id()),
        ids(store.claimNextOfKey(ALICE, "customer-1", LEASE)));
  }

  /** O5 is optional: a store without CLAIM_BY_KEY claims nothing by key (the port's defaults). */
  private void assumeClaimsByKey() {
    Assumptions.assumeTrue(store.capabilities().contains(StoreCapability.CLAIM_BY_KEY), () -> fixture().backendName()
        + " does not declare CLAIM_BY_KEY: its claimNextOfKey and claimNextOfKeys claim nothing");
  }

  @Test
  void o5_claimNextOfKeysHandsOutEachKeysNextClaimableEntry() {
    assumeClaimsByKey();
    OutboxEntry firstOfA = keyed("customer-1", "a1");
    OutboxEntry secondOfA = keyed("customer-1", "a2");
    OutboxEntry firstOfB = keyed("customer-2", "b1");
    OutboxEntry heldOfC = keyed("customer-3", "c1");
    keyed("customer-3", "c2");
    OutboxEntry retryOfD = keyed("customer-4", "d1");
    keyed("customer-4", "d2");
    List<Claim> held = store.claimNextOfKeys(BOB, List.of("customer-3", "customer-4"), LEASE);
    RuleCheck.requireEqual(Rule.O5, "claimed for two keys", Set.of(heldOfC.id(), retryOfD.id()), ids(held));
    Claim waitingForRetry = held.stream().filter(claim -> claim.entryId().equals(retryOfD.id())).findFirst()
        .orElseThrow();
    store.tryMarkClaimFailed(waitingForRetry, new RetryableFailure(clock.instant().plusSeconds(60), "broker down"));

    List<String> keys = List.of("customer-1", "customer-2", "customer-1", "customer-3", "customer-4", "customer-9");
    List<Claim> taken = store.claimNextOfKeys(ALICE, keys, LEASE);
    RuleCheck.requireEqual(Rule.O5, "claimed for six keys (one given twice, one held, one waiting for its retry,"
        + " one unknown)", List.of(firstOfA.id(), firstOfB.id()), taken.stream().map(Claim::entryId).toList());

    store.tryMarkClaimDelivered(taken.get(0), DeliveryReceipt.none());
    RuleCheck.requireEqual(Rule.O5, "claimed for the same keys after the first of customer-1 was delivered",
        Set.of(secondOfA.id()), ids(store.claimNextOfKeys(ALICE, keys, LEASE)));
  }

  @Test
  void o6_claimsTakeTheOldestDueAcrossKeysBehindAHeldBackBacklog() {
    keyed("customer-1", "a1");
    RuleCheck.requireEqual(Rule.O6, "the first claim", 1, store.claimDue(ALICE, 1, LEASE).size());
    store.appendAll(IntStream.range(0, 100).mapToObj(i -> message("a-later-" + i).withOrderingKey("customer-1")).toList());
    List<EntryId> claimable = List.of(keyed("customer-2", "b1").id(), store.append(message("free-1")).id(),
        keyed("customer-3", "c1").id(), store.append(message("free-2")).id(), keyed("customer-4", "d1").id());

    RuleCheck.requireEqual(Rule.O6, "the first claim of 2", Set.copyOf(claimable.subList(0, 2)),
        ids(store.claimDue(BOB, 2, LEASE)));
    RuleCheck.requireEqual(Rule.O6, "the second claim of 2", Set.copyOf(claimable.subList(2, 4)),
        ids(store.claimDue(BOB, 2, LEASE)));
    RuleCheck.requireEqual(Rule.O6, "the third claim of 2", Set.of(claimable.get(4)), ids(store.claimDue(BOB, 2, LEASE)));
  }

  private static Set<EntryId> ids(List<Claim> claims) {
    return claims.stream().map(Claim::entryId).collect(Collectors.toSet());
  }
}
