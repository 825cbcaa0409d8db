package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.adapter.redis.DuePeek.DueCandidate;
import io.claimedoutbox.adapter.redis.DuePeek.DueId;
import io.claimedoutbox.adapter.redis.ReadScript.Found;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.ClaimStorage;
import io.claimedoutbox.port.spi.ClaimWrite;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ZAddParams;

/**
 * Redis' claim primitives for the {@link io.claimedoutbox.port.spi.ClaimKernel}: the candidates are
 * read on every shard ({@link DuePeek}: the oldest due of each, decoded, so a damaged entry fails
 * the claim before anything is written) and merged; the claims are written by {@code claim.lua}, one
 * call per shard holding some of them, each a compare-and-set on the revision read. No unit is a
 * transaction: every script is atomic on its shard, and a claim that lost its candidate simply
 * answers {@link WriteAnswer#NOT_WRITTEN}. A script call repeated blindly (a client retry after a
 * broken connection) recognises its first run by the call's write stamp and answers with what that
 * run wrote.
 */
final class RedisClaimStorage implements ClaimStorage {

  private static final int MAX_LOOKS_PAST_MISPLACED = 8;
  private static final int SWEEP_WIDTH = 1_000;

  private final UnifiedJedis redis;
  private final RedisKeys keys;
  private final RedisCalls calls;
  private final RedisConditionalWrites rows;

  RedisClaimStorage(UnifiedJedis redis, RedisKeys keys, RedisCalls calls, RedisConditionalWrites rows) {
    this.redis = redis;
    this.keys = keys;
    this.calls = calls;
    this.rows = rows;
  }

  @Override
  public <T> T inUnit(Purpose purpose, String what, UnitWork<T> work) {
    return work.run(new ScriptUnit(what));
  }

  /**
   * Per key, the head of its index of unfinished entries, read with the entry: two round trips
   * however many keys, each a pipeline ({@link KeyHeads}).
   */
  @Override
  public List<OutboxEntry> firstUnfinishedOfKeys(List<String> orderingKeys) {
    String what = "read the next entry of " + (orderingKeys.size() == 1 ? orderingKeys.get(0)
        : orderingKeys.size() + " ordering keys");
    return calls.safely(what, () -> KeyHeads.read(redis, keys, orderingKeys));
  }

  @Override
  public boolean claimsAppended() {
    return true;
  }

  /**
   * The oldest due entries of one shard, each decoded: a damaged one throws before anything is
   * written. Two round trips: the due ids of both indexes, then their hashes within the payload
   * limit ({@link CandidateRead}; three when the limit could stop the read). An index member whose
   * hash is gone (an entry deleted between the two) is passed over and taken out of the indexes.
   */
  List<DueCandidate> peek(int shard, Instant now, int maxEntries, long maxPayloadBytes) {
    String what = "peek shard " + shard;
    ScriptCall dueIds = DuePeek.dueIds(keys, shard, now, maxEntries);
    List<DueId> due = DuePeek.oldestDue(calls.safely(what, () -> dueIds.run(redis)), shard, maxEntries);
    if (due.isEmpty()) {
      return List.of();
    }
    List<String> ids = due.stream().map(DueId::id).toList();
    List<Found> found = calls.safely(what, () -> CandidateRead.read(redis, keys, shard, ids, maxPayloadBytes));
    List<DueCandidate> candidates = new ArrayList<>(found.size());
    List<String> gone = new ArrayList<>();
    for (int i = 0; i < found.size(); i++) {
      Found entry = found.get(i);
      if (entry.hash().isEmpty()) {
        gone.add(entry.id());
      } else {
        EntryId id = EntryId.of(entry.id());
        candidates.add(new DueCandidate(shard, EntryFields.decode(id, entry.hash().get()), due.get(i).due()));
      }
    }
    if (!gone.isEmpty()) {
      String[] members = gone.toArray(String[]::new);
      calls.safely("drop deleted entries from the indexes of shard " + shard, () -> {
        redis.zrem(keys.due(shard), members);
        return redis.zrem(keys.inflight(shard), members);
      });
    }
    return candidates;
  }

  /**
   * One claim script on one shard, for claims that all carry one call's stamp.
   *
   * @return the ids it wrote; when the call ran before (a blind repeat), those that run wrote
   */
  Set<String> writeOnShard(int shard, List<ClaimWrite> writes, String what) {
    WriteStamp stamp = writes.get(0).claimed().lastWriteStamp().orElseThrow();
    List<OutboxEntry> read = writes.stream().map(ClaimWrite::candidate).toList();
    List<OutboxEntry> claimed = writes.stream().map(ClaimWrite::claimed).toList();
    ScriptCall claim = ClaimScript.call(keys, shard, stamp, read, claimed);
    return ClaimScript.writtenIds(calls.write(what, claim), what);
  }

  /**
   * The shard an entry lives on: its key's, or the one its id names. Empty for an id that names
   * none and was not found by a peek: an entry not written by this store, never claimed here.
   */
  private OptionalInt shardOf(OutboxEntry entry, Map<EntryId, Integer> peeked) {
    Integer found = peeked.get(entry.id());
    if (found != null) {
      return OptionalInt.of(found);
    }
    Optional<String> key = entry.message().orderingKey();
    return key.isPresent() ? OptionalInt.of(keys.shardOfOrderingKey(key.get())) : keys.shardOf(entry.id());
  }

  /**
   * Whether an entry an index offered as due is due by its own fields. The hash is the truth: an
   * index member that says "due" for an entry that is not (a finished entry or one taken on append
   * that an earlier version left in the due index, a lease or retry time ahead after a hand edit)
   * would stand in every claim's way; instead it is passed over and put right: a finished or claimed
   * entry is noted in {@code misplaced}, for {@link MisplacedScript}; a pending or failed one's score
   * is raised to its due time ({@code ZADD XX GT}: never re-adds a member a script removed meanwhile,
   * never lowers a score).
   */
  private boolean isDueOrRepair(int shard, OutboxEntry entry, Instant now, Map<Integer, List<String>> misplaced) {
    if (entry.isDue(now)) {
      return true;
    }
    if (entry.status() == EntryStatus.PENDING || entry.status() == EntryStatus.FAILED) {
      entry.dueAt().ifPresent(due -> calls.safely("repair the due index of " + entry.id(),
          () -> redis.zadd(keys.due(shard), due.toEpochMilli(), entry.id().value(), ZAddParams.zAddParams().xx().gt())));
    } else {
      misplaced.computeIfAbsent(shard, s -> new ArrayList<>()).add(entry.id().value());
    }
    return false;
  }

  /**
   * Puts right whichever of the shard's next {@link #SWEEP_WIDTH} due members are misplaced: the
   * window starts at the head, so it holds the members the look just passed over.
   */
  private void sweep(int shard, Instant now) {
    ScriptCall dueIds = DuePeek.dueIds(keys, shard, now, SWEEP_WIDTH);
    List<String> ids = DuePeek.oldestDue(calls.safely("sweep the due index of shard " + shard,
        () -> dueIds.run(redis)), shard, SWEEP_WIDTH).stream().map(DueId::id).toList();
    if (!ids.isEmpty()) {
      putRight(shard, ids);
    }
  }

  private void putRight(int shard, List<String> ids) {
    ScriptCall putRight = MisplacedScript.call(keys, shard, ids);
    calls.safely("put misplaced index members of shard " + shard + " right", () -> putRight.run(redis));
  }

  /** One claim's calls; remembers the shard each peeked candidate came from. */
  private final class ScriptUnit implements Unit {
    private final String what;
    private final Map<EntryId, Integer> peeked = new HashMap<>();

    ScriptUnit(String what) {
      this.what = what;
    }

    /**
     * Peeks every shard, then takes the oldest over all of them while the count and the payload
     * budget allow, passing over (and repairing) any the index called due that are not.
     */
    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes) {
      List<OutboxEntry> chosen = List.of();
      // Members put right may have hidden every due entry: look again rather than report none. A look
      // that found nothing but misplaced members also sweeps the next SWEEP_WIDTH due members of their
      // shards (ids only, no payloads), so a long backlog an earlier version left is put right a
      // thousand at a time, not a claim's batch at a time; the bound keeps one claim short.
      for (int look = 0; look < MAX_LOOKS_PAST_MISPLACED && chosen.isEmpty(); look++) {
        Map<Integer, List<String>> misplaced = new TreeMap<>();
        chosen = chooseDue(now, maxEntries, maxPayloadBytes, misplaced);
        if (misplaced.isEmpty()) {
          break;
        }
        if (chosen.isEmpty()) {
          misplaced.keySet().forEach(shard -> sweep(shard, now));
        } else {
          misplaced.forEach(RedisClaimStorage.this::putRight);
        }
      }
      return chosen;
    }

    private List<OutboxEntry> chooseDue(Instant now, int maxEntries, long maxPayloadBytes,
        Map<Integer, List<String>> misplaced) {
      List<DueCandidate> oldest = new ArrayList<>();
      for (int shard = 0; shard < keys.shards(); shard++) {
        oldest.addAll(peek(shard, now, maxEntries, maxPayloadBytes));
      }
      oldest.sort(Comparator.comparingLong(DueCandidate::due).thenComparing(candidate -> candidate.entry().id()));
      List<OutboxEntry> chosen = new ArrayList<>();
      PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
      int taken = 0;
      for (DueCandidate candidate : oldest) {
        if (taken == maxEntries || !budget.take(candidate.entry().message().payloadSize())) {
          break;
        }
        taken++;
        if (isDueOrRepair(candidate.shard(), candidate.entry(), now, misplaced)) {
          peeked.put(candidate.entry().id(), candidate.shard());
          chosen.add(candidate.entry());
        }
      }
      return chosen;
    }

    @Override
    public List<WriteAnswer> writeClaims(List<ClaimWrite> writes) {
      Map<Integer, List<ClaimWrite>> perShard = new TreeMap<>();
      for (ClaimWrite write : writes) {
        shardOf(write.candidate(), peeked)
            .ifPresent(shard -> perShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(write));
      }
      Set<String> written = new HashSet<>();
      perShard.forEach((shard, onShard) -> written.addAll(writeOnShard(shard, onShard, what)));
      List<WriteAnswer> answers = new ArrayList<>(writes.size());
      for (ClaimWrite write : writes) {
        answers.add(written.contains(write.candidate().id().value()) ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return rows.read(id);
    }
  }
}
