package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@code append.lua}: a batch of new entries on one shard, all or none. */
final class AppendScript {

  private static final LuaScript SCRIPT = LuaScript.load("append");

  private AppendScript() {}

  static ScriptCall call(RedisKeys keys, int shard, List<OutboxEntry> entries) {
    List<byte[]> touched = new ArrayList<>();
    touched.add(bytes(keys.due(shard)));
    touched.add(bytes(keys.held(shard)));
    touched.add(bytes(keys.inflight(shard)));
    Map<String, Integer> keyIndexes = new HashMap<>();
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(Integer.toString(entries.size())));
    for (OutboxEntry entry : entries) {
      args.add(bytes(entry.id().value()));
      args.add(bytes(EntryFields.millis(entry.dueAt().orElseThrow())));
      int keyIndex = entry.message().orderingKey().map(key -> keyIndexes.computeIfAbsent(key, absent -> {
        touched.add(bytes(keys.orderingKeyIndex(shard, absent)));
        return touched.size();
      })).orElse(0);
      args.add(bytes(Integer.toString(keyIndex)));
      List<byte[]> fields = RedisEntryCodec.flat(EntryFields.encode(entry));
      args.add(bytes(Integer.toString(fields.size() / 2)));
      args.addAll(fields);
    }
    entries.forEach(entry -> touched.add(bytes(keys.entry(shard, entry.id()))));
    return new ScriptCall(SCRIPT, touched, args);
  }
}
