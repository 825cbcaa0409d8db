package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import io.claimedoutbox.domain.EntryId;
import java.util.List;

/** {@code delete.lua}: one entry and its index members. */
final class DeleteScript {

  private static final LuaScript SCRIPT = LuaScript.load("delete");

  private DeleteScript() {}

  static ScriptCall call(RedisKeys keys, int shard, EntryId id) {
    return new ScriptCall(SCRIPT,
        List.of(bytes(keys.entry(shard, id)), bytes(keys.due(shard)), bytes(keys.inflight(shard))),
        List.of(bytes(id.value())));
  }

  /** @return whether there was an entry to delete */
  static boolean deleted(Object reply) {
    return ((Long) ScriptCall.body(reply, "delete").get(0)) == 1L;
  }
}
