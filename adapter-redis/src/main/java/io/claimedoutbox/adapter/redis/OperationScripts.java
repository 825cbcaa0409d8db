package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The operator's scripts, one shard per call: {@code stats.lua} (counts and oldest due times),
 * {@code requeue.lua} and {@code purge.lua}; a page of dead letters is read with {@link ReadScript}.
 */
final class OperationScripts {

  private static final LuaScript STATS = LuaScript.load("stats");
  private static final LuaScript REQUEUE = LuaScript.load("requeue");
  private static final LuaScript PURGE = LuaScript.load("purge");

  private OperationScripts() {}

  /** One shard's counts and the due times at the head of its due and in-flight indexes. */
  record ShardStats(long due, long failed, long inFlight, long finished, long deadLetters,
      Optional<Long> oldestDue, Optional<Long> earliestLeaseEnd) {}

  static ScriptCall stats(RedisKeys keys, int shard) {
    return new ScriptCall(STATS, List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard)),
        bytes(keys.failed(shard)), bytes(keys.finished(shard)), bytes(keys.deadLetters(shard)), bytes(keys.held(shard))),
        List.of());
  }

  static ShardStats stats(Object reply) {
    List<?> body = ScriptCall.body(reply, "stats");
    return new ShardStats((Long) body.get(0), (Long) body.get(1), (Long) body.get(2), (Long) body.get(3),
        (Long) body.get(4), score(body.get(5)), score(body.get(6)));
  }

  private static Optional<Long> score(Object value) {
    String score = text(value);
    return score.isEmpty() ? Optional.empty() : Optional.of((long) Double.parseDouble(score));
  }

  static ScriptCall requeue(RedisKeys keys, int shard, OutboxEntry read, OutboxEntry requeued) {
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(requeued.id().value()));
    args.add(bytes(Long.toString(read.revision())));
    args.add(bytes(EntryFields.millis(requeued.dueAt().orElseThrow())));
    args.addAll(RedisEntryCodec.flat(EntryFields.encodeState(requeued)));
    List<byte[]> touched = new ArrayList<>(List.of(bytes(keys.entry(shard, requeued.id())), bytes(keys.due(shard)),
        bytes(keys.finished(shard)), bytes(keys.deadLetters(shard)), bytes(keys.held(shard))));
    read.message().orderingKey().ifPresent(key -> touched.add(bytes(keys.orderingKeyIndex(shard, key))));
    return new ScriptCall(REQUEUE, touched, args);
  }

  static boolean requeued(Object reply) {
    return (Long) ScriptCall.body(reply, "requeue").get(0) == 1L;
  }

  static ScriptCall purge(RedisKeys keys, int shard, Instant cutoff, List<String> ids) {
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(EntryFields.millis(cutoff)));
    List<byte[]> touched = new ArrayList<>(List.of(bytes(keys.finished(shard)), bytes(keys.deadLetters(shard))));
    for (String id : ids) {
      args.add(bytes(id));
      touched.add(bytes(keys.entry(shard, id)));
    }
    return new ScriptCall(PURGE, touched, args);
  }

  static int purged(Object reply) {
    return ((Long) ScriptCall.body(reply, "purge").get(0)).intValue();
  }
}
