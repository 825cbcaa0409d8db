package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.ConditionalWrites;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.WriteAnswer;
import io.claimedoutbox.port.spi.WriteOutcomeUnknownException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis primitives the transition kernel decides over: one {@code write.lua} call per shard a
 * batch touches (one round trip on a standalone Redis), and reads by id ({@code HGETALL}).
 *
 * <p>How a failure is sorted: a call whose connection broke after the request left may have run,
 * and so may every call before it in the batch ({@link WriteOutcomeUnknownException}: the entries
 * read again decide); a call that could not connect, or that Redis refused with an error reply
 * (out of memory, a damaged hash), wrote nothing, and when it was the first of the batch the
 * failure says so. A blind repeat of a call that did run compares revisions its first run moved on,
 * so it writes nothing more, and the kernel finds the stamp.
 */
final class RedisConditionalWrites implements ConditionalWrites {

  private final UnifiedJedis redis;
  private final RedisKeys keys;
  private final RedisCalls calls;

  RedisConditionalWrites(UnifiedJedis redis, RedisKeys keys, RedisCalls calls) {
    this.redis = redis;
    this.keys = keys;
    this.calls = calls;
  }

  @Override
  public List<WriteAnswer> writeAll(List<ConditionalWrite> writes) {
    WriteAnswer[] answers = new WriteAnswer[writes.size()];
    Map<Integer, List<Integer>> byShard = new TreeMap<>();
    for (int i = 0; i < writes.size(); i++) {
      OptionalInt shard = keys.shardOf(writes.get(i).entryId());
      if (shard.isPresent()) {
        byShard.computeIfAbsent(shard.getAsInt(), s -> new ArrayList<>()).add(i);
      } else {
        // an id that names no shard was never stored here: the kernel's read finds nothing
        answers[i] = WriteAnswer.NOT_WRITTEN;
      }
    }
    boolean sentBefore = false;
    for (Map.Entry<Integer, List<Integer>> shard : byShard.entrySet()) {
      List<ConditionalWrite> group = shard.getValue().stream().map(writes::get).toList();
      ScriptCall call = ConditionalWriteScript.call(keys, shard.getKey(), group);
      String what = ConditionalWrite.describe(group);
      List<WriteAnswer> groupAnswers;
      try {
        groupAnswers = ConditionalWriteScript.answers(calls.write(what, call), what);
      } catch (WriteOutcomeUnknownException undecided) {
        throw undecided;
      } catch (OutboxStoreException failure) {
        boolean maybeRan = RedisCalls.brokeConnection(failure) && !RedisCalls.neverSent(failure);
        if (sentBefore || maybeRan) {
          throw new WriteOutcomeUnknownException(failure.getMessage(), failure);
        }
        if (RedisCalls.neverSent(failure)) {
          throw new OutboxStoreException("outbox store failed: " + what + ": could not connect, nothing was sent or"
              + " written: " + failure.getCause().getMessage(), failure);
        }
        throw failure;
      }
      sentBefore = true;
      for (int j = 0; j < group.size(); j++) {
        answers[shard.getValue().get(j)] = groupAnswers.get(j);
      }
    }
    return List.of(answers);
  }

  @Override
  public Optional<OutboxEntry> read(EntryId id) {
    OptionalInt shard = keys.shardOf(id);
    if (shard.isEmpty()) {
      return Optional.empty();
    }
    byte[] key = ScriptCall.bytes(keys.entry(shard.getAsInt(), id));
    Map<byte[], byte[]> raw = calls.safely("find " + id, () -> redis.hgetAll(key));
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(EntryFields.decode(id, RedisEntryCodec.byName(raw)));
  }
}
