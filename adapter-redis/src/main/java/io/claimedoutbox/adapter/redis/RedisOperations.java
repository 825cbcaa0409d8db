package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.adapter.redis.OperationScripts.ShardStats;
import io.claimedoutbox.adapter.redis.ReadScript.Found;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.spi.EntryFields;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.resps.Tuple;

/**
 * The operator's calls ({@link io.claimedoutbox.port.OutboxOperations}) over every shard. Counts
 * come from index sizes (a failed set, a finished and a dead-letter index next to the due and
 * in-flight ones), never from a scan; each shard answers in one script, so its numbers are one
 * consistent read. Methods throw Jedis' exceptions; the store turns them into its own.
 */
final class RedisOperations {

  /** Dead-letter ids read per call: a topic filter over many other topics' letters never blocks the server long. */
  private static final int DEAD_LETTER_PAGE = 100;

  private final UnifiedJedis redis;
  private final RedisKeys keys;
  private final Clock clock;
  private final Function<EntryId, Optional<OutboxEntry>> find;

  RedisOperations(UnifiedJedis redis, RedisKeys keys, Clock clock, Function<EntryId, Optional<OutboxEntry>> find) {
    this.redis = redis;
    this.keys = keys;
    this.clock = clock;
    this.find = find;
  }

  private List<ShardStats> stats() {
    List<ShardStats> shards = new ArrayList<>(keys.shards());
    for (int shard = 0; shard < keys.shards(); shard++) {
      shards.add(OperationScripts.stats(OperationScripts.stats(keys, shard).run(redis)));
    }
    return shards;
  }

  StatusCounts countByStatus() {
    Map<EntryStatus, Long> counts = new EnumMap<>(EntryStatus.class);
    for (ShardStats shard : stats()) {
      counts.merge(EntryStatus.PENDING, shard.due() - shard.failed(), Long::sum);
      counts.merge(EntryStatus.FAILED, shard.failed(), Long::sum);
      counts.merge(EntryStatus.CLAIMED, shard.inFlight(), Long::sum);
      counts.merge(EntryStatus.DELIVERED, shard.finished() - shard.deadLetters(), Long::sum);
      counts.merge(EntryStatus.DEAD_LETTERED, shard.deadLetters(), Long::sum);
    }
    return new StatusCounts(counts);
  }

  Optional<Duration> oldestDueAge() {
    Instant now = clock.instant();
    long nowMillis = now.toEpochMilli();
    return stats().stream()
        .flatMap(shard -> Stream.of(shard.oldestDue(), shard.earliestLeaseEnd()))
        .flatMap(Optional::stream).filter(due -> due <= nowMillis).min(Long::compare)
        .map(due -> Duration.between(Instant.ofEpochMilli(due), now));
  }

  /** Each shard's first matching dead letters, merged by id: a shard is read until it has a page or is exhausted. */
  List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    String topic = query.topic().orElse(ReadScript.ANY_TOPIC);
    List<OutboxEntry> merged = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      merged.addAll(deadLettersOfShard(shard, query.after(), topic, query.limit()));
    }
    merged.sort(Comparator.comparing(OutboxEntry::id));
    return merged.subList(0, Math.min(query.limit(), merged.size()));
  }

  /**
   * One shard's first dead letters after an id, read a page of the dead-letter index (ordered by id)
   * at a time, then the page's hashes with the topic filter. Not one atomic read: an entry requeued
   * or deleted between the two is passed over.
   */
  private List<OutboxEntry> deadLettersOfShard(int shard, Optional<EntryId> after, String topic, int limit) {
    List<OutboxEntry> letters = new ArrayList<>();
    String from = after.map(id -> "(" + id.value()).orElse("-");
    String what = "list the dead letters of shard " + shard;
    while (letters.size() < limit) {
      List<String> ids = redis.zrangeByLex(keys.deadLetters(shard), from, "+", 0, DEAD_LETTER_PAGE);
      if (ids.isEmpty()) {
        break;
      }
      for (Found found : ReadScript.found(
          ReadScript.call(keys, shard, ids, StoreArguments.NO_PAYLOAD_LIMIT, topic).run(redis), ids, what)) {
        if (letters.size() == limit) {
          break;
        }
        found.hash().map(hash -> EntryFields.decode(EntryId.of(found.id()), hash))
            .filter(entry -> entry.status() == EntryStatus.DEAD_LETTERED).ifPresent(letters::add);
      }
      if (ids.size() < DEAD_LETTER_PAGE) {
        break;
      }
      from = "(" + ids.get(ids.size() - 1);
    }
    return letters;
  }

  RequeueResult requeue(EntryId id) {
    int shard = keys.shardOf(id).orElse(-1);
    Optional<OutboxEntry> before = shard < 0 ? Optional.empty() : find.apply(id);
    if (before.isEmpty() || before.get().status() != EntryStatus.DEAD_LETTERED) {
      return RequeueResult.of(false, before);
    }
    OutboxEntry requeued = before.get().requeued(clock.instant(), WriteStamp.fresh());
    boolean written = OperationScripts.requeued(OperationScripts.requeue(keys, shard, before.get(), requeued).run(redis));
    return RequeueResult.of(written, find.apply(id));
  }

  /**
   * The batch's oldest finished entries over all shards (one read per shard), then each shard's
   * share deleted by one script that checks every id is still finished before the cutoff.
   */
  long countPurgeable(Duration olderThan) {
    String before = "(" + EntryFields.millis(clock.instant().minus(olderThan));
    long count = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      count += redis.zcount(keys.finished(shard), "-inf", before);
    }
    return count;
  }

  int purgeFinished(Duration olderThan, int batchSize) {
    Instant cutoff = clock.instant().minus(olderThan);
    record Candidate(int shard, String id, double finishedAt) {}
    List<Candidate> oldest = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      for (Tuple tuple : redis.zrangeByScoreWithScores(keys.finished(shard), "-inf",
          "(" + EntryFields.millis(cutoff), 0, batchSize)) {
        oldest.add(new Candidate(shard, new String(tuple.getBinaryElement(), StandardCharsets.UTF_8), tuple.getScore()));
      }
    }
    oldest.sort(Comparator.comparingDouble(Candidate::finishedAt).thenComparing(Candidate::id));
    Map<Integer, List<String>> byShard = new TreeMap<>();
    oldest.subList(0, Math.min(batchSize, oldest.size()))
        .forEach(candidate -> byShard.computeIfAbsent(candidate.shard(), s -> new ArrayList<>()).add(candidate.id()));
    int deleted = 0;
    for (Map.Entry<Integer, List<String>> shard : byShard.entrySet()) {
      deleted += OperationScripts.purged(OperationScripts.purge(keys, shard.getKey(), cutoff, shard.getValue()).run(redis));
    }
    return deleted;
  }
}
