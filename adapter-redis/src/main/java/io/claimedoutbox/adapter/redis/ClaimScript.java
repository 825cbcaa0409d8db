package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code claim.lua}: claims computed in Java by the domain's {@link OutboxEntry#claimedBy}, written
 * on one shard by a compare-and-set on the revision each candidate was read at (and, for a keyed
 * entry, on it still being its key's first). The script holds no claim logic; it writes the claimed
 * entry's state fields ({@link EntryFields#encodeState}).
 */
final class ClaimScript {

  private static final LuaScript SCRIPT = LuaScript.load("claim");

  private ClaimScript() {}

  /**
   * @param read the candidates as read
   * @param claimed each candidate as claimed, same order, all with {@code callStamp}
   */
  static ScriptCall call(RedisKeys keys, int shard, WriteStamp callStamp, List<OutboxEntry> read, List<OutboxEntry> claimed) {
    List<byte[]> touched = new ArrayList<>(5 + 2 * read.size());
    touched.addAll(List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard)),
        bytes(keys.claimCall(shard, callStamp.toString())), bytes(keys.failed(shard)), bytes(keys.held(shard))));
    claimed.forEach(next -> touched.add(bytes(keys.entry(shard, next.id()))));
    // Lua counts KEYS from 1: the first key index goes after the hashes
    Map<String, Integer> keyIndexPositions = new HashMap<>();
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(callStamp.toString()));
    for (int i = 0; i < read.size(); i++) {
      OutboxEntry next = claimed.get(i);
      args.add(bytes(next.id().value()));
      args.add(bytes(Long.toString(read.get(i).revision())));
      args.add(bytes(EntryFields.millis(next.dueAt().orElseThrow())));
      int keyIndexPosition = next.message().orderingKey().map(key -> keyIndexPositions.computeIfAbsent(key, named -> {
        touched.add(bytes(keys.orderingKeyIndex(shard, named)));
        return touched.size();
      })).orElse(0);
      args.add(bytes(Integer.toString(keyIndexPosition)));
      List<byte[]> fields = RedisEntryCodec.flat(EntryFields.encodeState(next));
      args.add(bytes(Integer.toString(fields.size() / 2)));
      args.addAll(fields);
    }
    return new ScriptCall(SCRIPT, touched, args);
  }

  /**
   * The ids the call wrote, or, when the call ran before (a blind repeat), the ids that run wrote and
   * that still carry its stamp.
   */
  static Set<String> writtenIds(Object reply, String what) {
    List<?> body = ScriptCall.body(reply, what);
    Set<String> ids = new HashSet<>();
    boolean repeated = ScriptCall.isRepeated(reply);
    for (Object row : body) {
      ids.add(repeated ? text(RedisEntryCodec.hash((List<?>) row, 0).getOrDefault(EntryFields.ID, new byte[0]))
          : text(row));
    }
    return ids;
  }
}
