package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code read.lua}: entries of one shard read by id in one atomic step, every hash passed in KEYS.
 * Reads a page of dead letters by topic (a claim's candidates are read by {@link CandidateRead}).
 */
final class ReadScript {

  private static final LuaScript SCRIPT = LuaScript.load("read");

  /** Reads every topic. */
  static final String ANY_TOPIC = "";

  /**
   * What was found for one id: its hash, or nothing when the entry is gone or of another topic.
   *
   * @param hash the stored fields by name
   */
  record Found(String id, Optional<Map<String, byte[]>> hash) {}

  private ReadScript() {}

  /**
   * @param ids the entries, in the order the payload limit takes them
   * @param maxPayloadBytes reading stops before the first entry that would not fit (the first always does)
   * @param topic the topic to read, or {@link #ANY_TOPIC}
   */
  static ScriptCall call(RedisKeys keys, int shard, List<String> ids, long maxPayloadBytes, String topic) {
    List<byte[]> hashes = new ArrayList<>(ids.size());
    for (String id : ids) {
      hashes.add(bytes(keys.entry(shard, id)));
    }
    return new ScriptCall(SCRIPT, hashes, List.of(bytes(Long.toString(maxPayloadBytes)), bytes(topic)));
  }

  /** One per id read, in order: fewer than asked when the payload limit stopped the read. */
  static List<Found> found(Object reply, List<String> ids, String what) {
    List<?> body = ScriptCall.body(reply, what);
    List<Found> found = new ArrayList<>(body.size());
    for (int i = 0; i < body.size(); i++) {
      Optional<Map<String, byte[]>> hash = body.get(i) instanceof List<?> fields && !fields.isEmpty()
          ? Optional.of(RedisEntryCodec.hash(fields, 0)) : Optional.empty();
      found.add(new Found(ids.get(i), hash));
    }
    return found;
  }
}
