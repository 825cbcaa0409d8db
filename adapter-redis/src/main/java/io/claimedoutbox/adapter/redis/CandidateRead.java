package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import io.claimedoutbox.adapter.redis.ReadScript.Found;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;

/**
 * A claim's candidates on one shard read with plain commands in a pipeline, not through a script:
 * {@code HGETALL} of each, after {@code HSTRLEN} of their payloads when the payload limit could stop
 * the read. It stops where {@code read.lua} would: before the first entry whose payload would not
 * fit (the first always does), a gone entry counting as empty.
 *
 * <p>Why not the script: a hash read inside Lua is copied into Lua strings and out again, which cost
 * the Redis server 5.2 µs an entry against 1.3 for the same {@code HGETALL} run as a command, and the
 * server is the single thread every claim and result write of every drain waits for. Each hash is
 * still read whole at one moment; the candidates are no longer read at one moment, which the claim
 * does not need: {@code claim.lua} writes an entry only at the revision read.
 */
final class CandidateRead {

  private static final byte[] PAYLOAD = bytes(EntryFields.PAYLOAD);

  private CandidateRead() {}

  /**
   * @param ids the due entries, in the order the payload limit takes them
   * @param maxPayloadBytes the most payload bytes to read over all of them
   * @return one per id read, in order; fewer than asked when the payload limit stopped the read
   */
  static List<Found> read(UnifiedJedis redis, RedisKeys keys, int shard, List<String> ids, long maxPayloadBytes) {
    List<byte[]> hashKeys = new ArrayList<>(ids.size());
    for (String id : ids) {
      hashKeys.add(bytes(keys.entry(shard, id)));
    }
    int fitting = fitting(redis, hashKeys, maxPayloadBytes);
    List<Response<Map<byte[], byte[]>>> replies = new ArrayList<>(fitting);
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (byte[] key : hashKeys.subList(0, fitting)) {
        replies.add(pipeline.hgetAll(key));
      }
      pipeline.sync();
    }
    List<Found> found = new ArrayList<>(fitting);
    for (int i = 0; i < fitting; i++) {
      Map<byte[], byte[]> raw = RedisCalls.answer(replies.get(i));
      found.add(new Found(ids.get(i), raw.isEmpty() ? Optional.empty() : Optional.of(RedisEntryCodec.byName(raw))));
    }
    return found;
  }

  /** How many of the entries, from the first, the payload limit lets the read take. */
  private static int fitting(UnifiedJedis redis, List<byte[]> hashKeys, long maxPayloadBytes) {
    if ((long) hashKeys.size() * OutboxMessage.MAX_PAYLOAD_BYTES <= maxPayloadBytes) {
      // no payload can be larger: the sizes could not stop the read, so they are not asked for
      return hashKeys.size();
    }
    List<Response<Long>> sizes = new ArrayList<>(hashKeys.size());
    try (AbstractPipeline pipeline = redis.pipelined()) {
      for (byte[] key : hashKeys) {
        sizes.add(pipeline.hstrlen(key, PAYLOAD));
      }
      pipeline.sync();
    }
    long bytes = 0;
    int taken = 0;
    for (Response<Long> size : sizes) {
      long next = RedisCalls.answer(size);
      if (taken > 0 && bytes + next > maxPayloadBytes) {
        break;
      }
      bytes += next;
      taken++;
    }
    return taken;
  }
}
