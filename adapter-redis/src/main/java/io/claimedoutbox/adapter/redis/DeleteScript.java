package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.EntryId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@code delete.lua}: one entry and its index members. */
final class DeleteScript {

  private static final LuaScript SCRIPT = LuaScript.load("delete");

  private DeleteScript() {}

  /**
   * @param orderingKey the entry's ordering key as read just before, empty when it has none (or there
   *     is no entry)
   */
  static ScriptCall call(RedisKeys keys, int shard, EntryId id, Optional<String> orderingKey) {
    List<byte[]> touched = new ArrayList<>(List.of(bytes(keys.entry(shard, id)), bytes(keys.due(shard)),
        bytes(keys.inflight(shard)), bytes(keys.failed(shard)), bytes(keys.finished(shard)),
        bytes(keys.deadLetters(shard)), bytes(keys.held(shard))));
    orderingKey.ifPresent(key -> touched.add(bytes(keys.orderingKeyIndex(shard, key))));
    return new ScriptCall(SCRIPT, touched, List.of(bytes(id.value()), bytes(orderingKey.orElse(""))));
  }

  /** @return whether the stored ordering key was not the one read: read it again and repeat */
  static boolean moved(Object reply) {
    return reply instanceof List<?> parts && !parts.isEmpty() && "MOVED".equals(text(parts.get(0)));
  }

  /** @return whether there was an entry to delete */
  static boolean deleted(Object reply) {
    return ((Long) ScriptCall.body(reply, "delete").get(0)) == 1L;
  }
}
