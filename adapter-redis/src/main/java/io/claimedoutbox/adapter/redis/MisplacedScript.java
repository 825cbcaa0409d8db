package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code misplaced.lua}: index members a claim's peek offered as due whose entries say otherwise
 * (finished, or claimed with a live lease) are moved where their hashes say they belong, atomically
 * with reading those hashes, so a member a concurrent write just put right is never undone.
 */
final class MisplacedScript {

  private static final LuaScript SCRIPT = LuaScript.load("misplaced");

  private MisplacedScript() {}

  static ScriptCall call(RedisKeys keys, int shard, List<String> ids) {
    List<byte[]> touched = new ArrayList<>(2 + ids.size());
    touched.add(bytes(keys.due(shard)));
    touched.add(bytes(keys.inflight(shard)));
    ids.forEach(id -> touched.add(bytes(keys.entry(shard, id))));
    return new ScriptCall(SCRIPT, touched, ids.stream().map(ScriptCall::bytes).toList());
  }
}
