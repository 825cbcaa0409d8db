package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code claim.lua}: claims computed in Java by the domain's {@link OutboxEntry#claimedBy}, written
 * on one shard by a compare-and-set on the revision each candidate was read at. The script holds no
 * claim logic; it writes the claimed entry's state fields ({@link EntryFields#encodeState}).
 */
final class ClaimScript {

  private static final LuaScript SCRIPT = LuaScript.load("claim");

  private ClaimScript() {}

  /**
   * @param read the candidates as read
   * @param claimed each candidate as claimed, same order, all with {@code callStamp}
   */
  static ScriptCall call(RedisKeys keys, int shard, WriteStamp callStamp, List<OutboxEntry> read, List<OutboxEntry> claimed) {
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(keys.entryPrefix(shard)));
    args.add(bytes(callStamp.toString()));
    for (int i = 0; i < read.size(); i++) {
      OutboxEntry next = claimed.get(i);
      args.add(bytes(next.id().value()));
      args.add(bytes(Long.toString(read.get(i).revision())));
      args.add(bytes(EntryFields.millis(next.dueAt().orElseThrow())));
      List<byte[]> fields = RedisEntryCodec.flat(EntryFields.encodeState(next));
      args.add(bytes(Integer.toString(fields.size() / 2)));
      args.addAll(fields);
    }
    return new ScriptCall(SCRIPT,
        List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard)), bytes(keys.claimCall(shard, callStamp.toString())),
            bytes(keys.failed(shard))),
        args);
  }

  /**
   * The claims the call made: the computed entries whose ids the script wrote, or, when the call
   * ran before (a blind retry), the entries as that run left them.
   */
  static List<Claim> claims(Object reply, List<OutboxEntry> claimed, String what) {
    List<?> body = ScriptCall.body(reply, what);
    List<Claim> claims = new ArrayList<>(body.size());
    if (ScriptCall.isRepeated(reply)) {
      for (Object row : body) {
        Map<String, byte[]> hash = RedisEntryCodec.hash((List<?>) row, 0);
        EntryId id = EntryId.of(text(hash.getOrDefault(EntryFields.ID, new byte[0])));
        claims.add(Claim.of(EntryFields.decode(id, hash)));
      }
      return claims;
    }
    Map<String, OutboxEntry> byId = new LinkedHashMap<>();
    claimed.forEach(entry -> byId.put(entry.id().value(), entry));
    for (Object id : body) {
      claims.add(Claim.of(byId.get(text(id))));
    }
    return claims;
  }
}
