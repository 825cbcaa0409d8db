package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.util.Set;
import java.util.ArrayList;
import io.claimedoutbox.port.spi.ClaimWrite;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Redis adapter: scripts, retries and damaged rows, on both topologies")
class RedisAdapterTest {

  private static final WorkerId WORKER = WorkerId.of("worker-1");
  private static final Duration LEASE = Duration.ofSeconds(30);

  private MutableClock clock;

  @BeforeEach
  void startClock() {
    clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  }

  private RedisOutboxStore cleanStore(RedisTopology topology) {
    RedisTestKit fixture = RedisFixtures.of(topology);
    fixture.fixture().clean();
    return fixture.storeBuilder().clock(clock).build();
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a flushed script cache (NOSCRIPT) is reloaded and the call still succeeds")
  void scriptCacheFlushIsSurvived(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    store.appendAll(List.of(OutboxMessage.of("t", new byte[] {1}), OutboxMessage.of("t", new byte[] {2})));
    for (int shard = 0; shard < fixture.keys().shards(); shard++) {
      fixture.client().scriptFlush(fixture.keys().due(shard).getBytes());
    }

    List<Claim> claims = store.claimDue(WORKER, 2, LEASE);
    for (int shard = 0; shard < fixture.keys().shards(); shard++) {
      fixture.client().scriptFlush(fixture.keys().due(shard).getBytes());
    }
    ClaimTransitionResult delivered = store.tryMarkClaimDelivered(claims.get(0), DeliveryReceipt.none());

    assertThat(claims).hasSize(2);
    assertThat(delivered.outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a transition's write repeated (a blind retry) writes nothing more, and the store answers APPLIED by its stamp")
  void repeatedTransitionWriteIsHarmless(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    RedisConditionalWrites writes = new RedisConditionalWrites(fixture.client(), fixture.keys(),
        new RedisCalls(fixture.client(), ReplicaAcknowledgement.NONE));
    store.append(OutboxMessage.of("t", new byte[] {1}).withOrderingKey("k"));
    Claim claim = store.claimDue(WORKER, 1, LEASE).get(0);
    ConditionalWrite save = write(claim, claim.snapshot(), LeaseRenewal.withProgress(LEASE, "p"));

    assertThat(writes.writeAll(List.of(save))).containsExactly(WriteAnswer.WRITTEN);
    clock.advance(Duration.ofSeconds(5));
    assertThat(writes.writeAll(List.of(save))).as("the repeat").containsExactly(WriteAnswer.NOT_WRITTEN);
    assertThat(store.find(claim.entryId())).contains(save.next());

    ConditionalWrite delivery = write(claim, save.next(), DeliveryReceipt.of("r"));
    assertThat(writes.writeAll(List.of(delivery))).containsExactly(WriteAnswer.WRITTEN);
    assertThat(writes.writeAll(List.of(delivery))).as("the repeat").containsExactly(WriteAnswer.NOT_WRITTEN);
    assertThat(store.find(claim.entryId())).contains(delivery.next());
    int shard = fixture.keys().shardOf(claim.entryId()).orElseThrow();
    assertThat(fixture.client().zcard(fixture.keys().orderingKeyIndex(shard, "k"))).as("the key's index").isZero();
    assertThat(fixture.client().zscore(fixture.keys().finished(shard), claim.entryId().value()))
        .as("the finished index").isEqualTo((double) delivery.next().updatedAt().toEpochMilli());
    assertThat(store.tryMarkClaimDelivered(claim, DeliveryReceipt.of("r")).outcome())
        .as("a new call with a new stamp").isEqualTo(ClaimTransitionOutcome.TERMINAL);
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a key's backlog waits in the held index, not the due index; each finished first entry makes the next one due")
  void keyBacklogWaitsOutsideTheDueIndex(RedisTopology topology) {
    KeyBacklog backlog = keyBacklog(topology, 4);
    RedisOutboxStore store = backlog.store();
    List<OutboxEntry> keyed = backlog.entries();
    store.append(OutboxMessage.of("t", new byte[] {0}));

    assertThat(backlog.held()).as("held").containsExactlyElementsOf(ids(keyed.subList(1, 4)));
    assertThat(store.countByStatus().of(EntryStatus.PENDING)).as("pending, held ones counted").isEqualTo(5);
    List<Claim> claims = store.claimDue(WORKER, 10, LEASE);
    assertThat(claims).as("the key's first and the unkeyed entry").hasSize(2);
    Claim current = claims.stream().filter(claim -> claim.entryId().equals(keyed.get(0).id())).findFirst().orElseThrow();
    for (int i = 1; i < keyed.size(); i++) {
      assertThat(store.tryMarkClaimDelivered(current, DeliveryReceipt.none()).outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
      assertThat(backlog.held()).as("held after %d delivered", i).containsExactlyElementsOf(ids(keyed.subList(i + 1, 4)));
      List<Claim> next = store.claimDue(WORKER, 10, LEASE);
      assertThat(next).extracting(Claim::entryId).as("claimed after %d delivered", i).containsExactly(keyed.get(i).id());
      current = next.get(0);
    }
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a due index written before the held index (a key's backlog in it) is sorted out by claims, key order kept")
  void dueIndexOfAnEarlierVersionIsSortedOut(RedisTopology topology) {
    KeyBacklog backlog = keyBacklog(topology, 3);
    backlog.asAnEarlierVersionIndexedIt();

    assertThat(backlog.store().claimDue(WORKER, 10, LEASE)).extracting(Claim::entryId)
        .containsExactly(backlog.entries().get(0).id());
    assertThat(backlog.held()).as("held").containsExactlyElementsOf(ids(backlog.entries().subList(1, 3)));
    assertThat(backlog.due()).as("due").isEmpty();
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a claim moves the held-back entries it read out of an earlier version's due index; the next finds the expired lease behind them")
  void claimsSortOutAnEarlierIndexBeforeAnExpiredLease(RedisTopology topology) {
    KeyBacklog backlog = keyBacklog(topology, 6);
    Claim first = backlog.store().claimDue(WORKER, 1, LEASE).get(0);
    backlog.asAnEarlierVersionIndexedIt();
    clock.advance(LEASE);
    WorkerId other = WorkerId.of("other");

    assertThat(backlog.store().claimDue(other, 3, LEASE)).as("a claim of three held-back entries").isEmpty();
    assertThat(backlog.held()).as("moved by it").containsExactlyElementsOf(ids(backlog.entries().subList(1, 4)));
    assertThat(backlog.due()).as("left for the next").containsExactlyElementsOf(ids(backlog.entries().subList(4, 6)));

    assertThat(backlog.store().claimDue(other, 3, LEASE)).extracting(Claim::entryId).as("the expired lease")
        .containsExactly(first.entryId());
    assertThat(backlog.held()).as("held").containsExactlyElementsOf(ids(backlog.entries().subList(1, 6)));
    assertThat(backlog.due()).as("due").isEmpty();
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a dead letter requeued ahead of its key's first entry goes first; a deleted first entry makes the next one due")
  void requeueAheadAndDeleteKeepTheKeyMoving(RedisTopology topology) {
    KeyBacklog backlog = keyBacklog(topology, 3);
    RedisOutboxStore store = backlog.store();
    List<OutboxEntry> keyed = backlog.entries();
    Claim first = store.claimDue(WORKER, 10, LEASE).get(0);
    store.tryMarkClaimDeadLettered(first, new DeadLetter("poison"));
    assertThat(store.requeue(keyed.get(0).id()).outcome()).isEqualTo(RequeueResult.Outcome.REQUEUED);
    assertThat(backlog.due()).as("due after the requeue").containsExactly(keyed.get(0).id().value());
    assertThat(backlog.held()).as("held after the requeue").containsExactlyElementsOf(ids(keyed.subList(1, 3)));

    List<Claim> again = store.claimDue(WORKER, 10, LEASE);
    assertThat(again).extracting(Claim::entryId).as("claimed after the requeue").containsExactly(keyed.get(0).id());
    assertThat(backlog.held()).as("held").containsExactlyElementsOf(ids(keyed.subList(1, 3)));
    store.tryMarkClaimDelivered(again.get(0), DeliveryReceipt.none());
    assertThat(backlog.held()).as("held after the delivery").containsExactlyElementsOf(ids(keyed.subList(2, 3)));

    assertThat(store.delete(keyed.get(1).id())).isTrue();
    assertThat(backlog.held()).as("held after the delete").isEmpty();
    assertThat(store.claimDue(WORKER, 10, LEASE)).extracting(Claim::entryId).containsExactly(keyed.get(2).id());
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a dead-letter page by topic reads on past index pages of other topics, and passes over a requeued letter")
  void deadLetterPageReadsPastOtherTopics(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      messages.add(OutboxMessage.of(i % 50 == 49 ? "wanted" : "other", new byte[] {(byte) i}));
    }
    List<EntryId> appended = store.appendAll(messages).stream().map(OutboxEntry::id).toList();
    for (Claim claim : store.claimDue(WORKER, 250, LEASE)) {
      store.tryMarkClaimDeadLettered(claim, new DeadLetter("poison"));
    }
    List<EntryId> wanted = List.of(appended.get(49), appended.get(99), appended.get(149), appended.get(199),
        appended.get(249)).stream().sorted().toList();
    store.requeue(wanted.get(1));

    assertThat(store.deadLetters(DeadLetterQuery.firstPage(3).topic("wanted"))).extracting(OutboxEntry::id)
        .containsExactly(wanted.get(0), wanted.get(2), wanted.get(3));
    assertThat(store.deadLetters(DeadLetterQuery.firstPage(10).topic("wanted").after(wanted.get(3))))
        .extracting(OutboxEntry::id).containsExactly(wanted.get(4));
    assertThat(store.deadLetters(DeadLetterQuery.firstPage(300))).as("every topic").hasSize(249);
  }

  /** A clean store holding one key's backlog, appended in one batch, and the shard its indexes are on. */
  private record KeyBacklog(RedisOutboxStore store, RedisTestKit fixture, int shard, List<OutboxEntry> entries) {

    RedisKeys keys() {
      return fixture.keys();
    }

    List<String> held() {
      return fixture.client().zrange(keys().held(shard), 0, -1);
    }

    List<String> due() {
      return fixture.client().zrange(keys().due(shard), 0, -1);
    }

    /** Puts the entries behind the key's first in the due index, with their scores, as before the held index. */
    void asAnEarlierVersionIndexedIt() {
      for (OutboxEntry entry : entries.subList(1, entries.size())) {
        String id = entry.id().value();
        Double score = fixture.client().zscore(keys().held(shard), id);
        if (score != null) {
          fixture.client().zadd(keys().due(shard), score, id);
          fixture.client().zrem(keys().held(shard), id);
        }
      }
    }
  }

  private KeyBacklog keyBacklog(RedisTopology topology, int size) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 1; i <= size; i++) {
      messages.add(OutboxMessage.of("t", new byte[] {(byte) i}).withOrderingKey("k"));
    }
    return new KeyBacklog(store, fixture, fixture.keys().shardOfOrderingKey("k"), store.appendAll(messages));
  }

  private static List<String> ids(List<OutboxEntry> entries) {
    return entries.stream().map(entry -> entry.id().value()).toList();
  }

  private ConditionalWrite write(Claim claim, OutboxEntry basis, TransitionRequest request) {
    return new ConditionalWrite(claim, request.kind(), basis, request.applyTo(basis, clock.instant(), WriteStamp.fresh()));
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a claim script repeated with the same call stamp answers the ids its first run wrote and claims nothing more")
  void repeatedClaimIsHarmless(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    int shards = store.shards();
    for (int i = 0; i < 6 * shards; i++) {
      store.append(OutboxMessage.of("t", new byte[] {(byte) i}));
    }
    WriteStamp call = WriteStamp.fresh();
    RedisClaimStorage claims = store.claimStorage();

    for (int shard = 0; shard < shards; shard++) {
      List<ClaimWrite> writes = new ArrayList<>();
      for (DuePeek.DueCandidate candidate : claims.peek(shard, clock.instant(), 3, StoreArguments.NO_PAYLOAD_LIMIT)
          .subList(0, 3)) {
        writes.add(new ClaimWrite(candidate.entry(), candidate.entry().claimedBy(WORKER, clock.instant(), LEASE, call)));
      }
      Set<String> first = claims.writeOnShard(shard, writes, "claim");
      Set<String> repeated = claims.writeOnShard(shard, writes, "claim again");

      assertThat(first).as("ids written on shard %d", shard).hasSize(3);
      assertThat(repeated).as("ids the repeat answers on shard %d", shard).isEqualTo(first);
    }
    assertThat(store.claimDue(WorkerId.of("other"), 100, LEASE)).hasSize(3 * shards);
  }

  /** The hand edits that once left a half-claimed batch (only a bad status was caught before writing). */
  enum Damage {
    STATUS(EntryFields.STATUS, "SHIPPED"),
    CREATED_AT(EntryFields.CREATED_AT, "not-a-number"),
    PAYLOAD_DELETED(EntryFields.PAYLOAD, null),
    HEADERS_MALFORMED(EntryFields.HEADERS, "no-equals-sign"),
    GENERATION_NOT_AN_INTEGER(EntryFields.CLAIM_GENERATION, "1.5");

    final String field;
    final String value;

    Damage(String field, String value) {
      this.field = field;
      this.value = value;
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("topologiesAndDamages")
  @DisplayName("a damaged due row stops the claim before anything is written, naming the entry")
  void damagedRowAbortsTheWholeClaim(RedisTopology topology, Damage damage) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    List<OutboxEntry> entries = store.appendAll(List.of(OutboxMessage.of("a", new byte[] {1}),
        OutboxMessage.of("b", new byte[] {2}), OutboxMessage.of("c", new byte[] {3}), OutboxMessage.of("d", new byte[] {4})));
    EntryId damaged = entries.get(1).id();
    String key = fixture.keys().entry(fixture.keys().shardOf(damaged).orElseThrow(), damaged);
    if (damage.value == null) {
      fixture.client().hdel(key, damage.field);
    } else {
      fixture.client().hset(key, damage.field, damage.value);
    }

    for (int attempt = 0; attempt < 2; attempt++) {
      assertThatThrownBy(() -> store.claimDue(WORKER, 10, LEASE))
          .isInstanceOfSatisfying(UndecodableEntryException.class,
              thrown -> assertThat(thrown.entryId()).isEqualTo(damaged))
          .hasMessageContaining(damaged.value());
      for (OutboxEntry entry : List.of(entries.get(0), entries.get(2), entries.get(3))) {
        assertThat(store.find(entry.id())).as("untouched: %s", entry.id()).contains(entry);
      }
    }
  }

  static Stream<Arguments> topologiesAndDamages() {
    return Stream.of(RedisTopology.values())
        .flatMap(topology -> Stream.of(Damage.values()).map(damage -> Arguments.of(topology, damage)));
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a claim asking for far more than is due sizes its work by what is due")
  void hugeRequestsClaimWhatIsDue(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    store.appendAll(List.of(OutboxMessage.of("a", new byte[] {1}), OutboxMessage.of("b", new byte[] {2})));

    assertThat(store.claimDue(WORKER, StoreArguments.MAX_BATCH, LEASE)).hasSize(2);
    assertThatThrownBy(() -> store.claimDue(WORKER, Integer.MAX_VALUE, LEASE))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxEntries");
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("ids name their shard; foreign ids are simply not found")
  void foreignIdsAreNotFound(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    assertThat(store.find(EntryId.of("no-shard-suffix"))).isEmpty();
    assertThat(store.find(EntryId.of("x.9999"))).isEmpty();
    assertThat(store.delete(EntryId.of("x.abc"))).isFalse();
    OutboxEntry entry = store.append(OutboxMessage.of("t", new byte[] {1}));
    assertThat(entry.id().value()).matches(".*\\.[0-9]+");
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("an in-flight index that says due while the entry's own lease is live: passed over, repaired, the rest claimed")
  void inFlightIndexAheadOfTheLeaseIsRepaired(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    OutboxEntry held = store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = store.claimDue(WORKER, 1, LEASE).get(0);
    OutboxEntry free = store.append(OutboxMessage.of("t", new byte[] {2}));
    int shard = fixture.keys().shardOf(held.id()).orElseThrow();
    fixture.client().zadd(fixture.keys().inflight(shard), clock.instant().minusSeconds(60).toEpochMilli(), held.id().value());

    List<Claim> claims = store.claimDue(WorkerId.of("worker-2"), 10, LEASE);

    assertThat(claims).extracting(Claim::entryId).containsExactly(free.id());
    assertThat(fixture.client().zscore(fixture.keys().inflight(shard), held.id().value()))
        .as("the in-flight score raised to the lease end").isEqualTo((double) claim.leaseUntil().toEpochMilli());
    assertThat(store.find(held.id()).orElseThrow().currentClaim().orElseThrow().owner()).isEqualTo(WORKER);
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("a due index an earlier version left entries taken on append in (delivered, or claimed with a live lease),"
      + " more of them than a claim asks for: a claim of one puts them where their hashes say and claims the entry behind")
  void entriesTakenOnAppendLeftInTheDueIndexArePutBack(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    List<OutboxEntry> misplacedOnes = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      misplacedOnes.add(store.append(OutboxMessage.of("t", new byte[] {1})));
    }
    OutboxEntry held = store.append(OutboxMessage.of("t", new byte[] {2}));
    misplacedOnes.add(held);
    List<Claim> claims = store.claimDue(WORKER, 21, LEASE);
    assertThat(claims).hasSize(21);
    Claim heldClaim = claims.stream().filter(claim -> claim.entryId().equals(held.id())).findFirst().orElseThrow();
    for (Claim claim : claims) {
      if (claim != heldClaim) {
        assertThat(store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()).isApplied()).isTrue();
      }
    }
    clock.advance(Duration.ofSeconds(5));
    OutboxEntry behind = store.append(OutboxMessage.of("t", new byte[] {3}));
    long earlier = clock.instant().minusSeconds(60).toEpochMilli();
    for (OutboxEntry misplaced : misplacedOnes) {
      // as the append of an earlier version wrote an entry taken on append: in the due index
      int shard = fixture.keys().shardOf(misplaced.id()).orElseThrow();
      fixture.client().zadd(fixture.keys().due(shard), earlier, misplaced.id().value());
      fixture.client().zrem(fixture.keys().inflight(shard), misplaced.id().value());
    }

    List<Claim> claimed = store.claimDue(WorkerId.of("worker-2"), 1, LEASE);

    assertThat(claimed).extracting(Claim::entryId).containsExactly(behind.id());
    for (OutboxEntry misplaced : misplacedOnes) {
      int shard = fixture.keys().shardOf(misplaced.id()).orElseThrow();
      assertThat(fixture.client().zscore(fixture.keys().due(shard), misplaced.id().value()))
          .as("%s in the due index", misplaced.id()).isNull();
    }
    int heldShard = fixture.keys().shardOf(held.id()).orElseThrow();
    assertThat(fixture.client().zscore(fixture.keys().inflight(heldShard), held.id().value()))
        .as("the claimed entry in the in-flight index, at its lease end")
        .isEqualTo((double) heldClaim.leaseUntil().toEpochMilli());
    assertThat(store.tryMarkClaimDelivered(heldClaim, DeliveryReceipt.none()).isApplied()).isTrue();
    assertThat(fixture.client().zscore(fixture.keys().inflight(heldShard), held.id().value()))
        .as("the claimed entry, delivered, in the in-flight index").isNull();
  }

  @ParameterizedTest
  @EnumSource(RedisTopology.class)
  @DisplayName("an entry a drain takes on append is written to the in-flight index at its lease end, not the due index;"
      + " its delivery leaves every index but the finished one")
  void anEntryTakenOnAppendIsInFlight(RedisTopology topology) {
    RedisOutboxStore store = cleanStore(topology);
    RedisTestKit fixture = RedisFixtures.of(topology);
    CommitNotifications.Listener taker = new CommitNotifications.Listener() {
      @Override
      public Optional<CommitNotifications.ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
        return Optional.of(new CommitNotifications.ClaimOnAppend(WORKER, LEASE));
      }

      @Override
      public void entriesCommitted(List<OutboxEntry> appended) {}
    };
    OutboxEntry taken;
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(taker)) {
      taken = store.append(OutboxMessage.of("t", new byte[] {1}));
    }
    int shard = fixture.keys().shardOf(taken.id()).orElseThrow();
    String id = taken.id().value();

    assertThat(taken.status()).isEqualTo(EntryStatus.CLAIMED);
    assertThat(fixture.client().zscore(fixture.keys().due(shard), id)).as("in the due index").isNull();
    assertThat(fixture.client().zscore(fixture.keys().inflight(shard), id)).as("in the in-flight index")
        .isEqualTo((double) taken.currentClaim().orElseThrow().leaseUntil().toEpochMilli());
    assertThat(store.tryMarkClaimDelivered(Claim.of(taken), DeliveryReceipt.none()).isApplied()).isTrue();
    assertThat(fixture.client().zscore(fixture.keys().inflight(shard), id)).as("delivered, in the in-flight index")
        .isNull();
    assertThat(fixture.client().zscore(fixture.keys().due(shard), id)).as("delivered, in the due index").isNull();
  }
}
