package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * The first unfinished entry of each of many ordering keys, in two pipelines whatever the number of
 * keys: the head of each key's index ({@code ZRANGE 0 0}), then the heads' hashes ({@code HGETALL}).
 * A key's head and its hash are not read at one moment, which a claim does not need: it writes an
 * entry only at the revision read, and only while no earlier entry of its key is unfinished.
 */
final class KeyHeads {

  private KeyHeads() {}

  /**
   * @param orderingKeys distinct keys
   * @return each key's first unfinished entry, decoded, in the keys' order; none for a key with none
   */
  static List<OutboxEntry> read(UnifiedJedis redis, RedisKeys keys, List<String> orderingKeys) {
    List<Response<List<byte[]>>> heads = new ArrayList<>(orderingKeys.size());
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (String key : orderingKeys) {
        heads.add(pipeline.zrange(bytes(keys.orderingKeyIndex(keys.shardOfOrderingKey(key), key)), 0, 0));
      }
      pipeline.sync();
    }
    List<EntryId> ids = new ArrayList<>(orderingKeys.size());
    List<Response<Map<byte[], byte[]>>> hashes = new ArrayList<>(orderingKeys.size());
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (Response<List<byte[]>> head : heads) {
        List<byte[]> first = RedisCalls.answer(head);
        if (first.isEmpty()) {
          continue;
        }
        EntryId id = EntryId.of(text(first.get(0)));
        OptionalInt shard = keys.shardOf(id);
        if (shard.isPresent()) {
          ids.add(id);
          hashes.add(pipeline.hgetAll(bytes(keys.entry(shard.getAsInt(), id))));
        }
      }
      pipeline.sync();
    }
    List<OutboxEntry> entries = new ArrayList<>(ids.size());
    for (int i = 0; i < ids.size(); i++) {
      Map<byte[], byte[]> raw = RedisCalls.answer(hashes.get(i));
      if (!raw.isEmpty()) {
        entries.add(EntryFields.decode(ids.get(i), RedisEntryCodec.byName(raw)));
      }
    }
    return entries;
  }
}
