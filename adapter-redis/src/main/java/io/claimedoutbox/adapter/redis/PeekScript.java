package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code peek.lua}: the oldest due entries of one shard, read without claiming them. */
final class PeekScript {

  private static final LuaScript SCRIPT = LuaScript.load("peek");

  /**
   * The most held-back entries one peek moves from the due index to the held index: a due index
   * written before the held index existed is cleared over several claims, each a few milliseconds of
   * the server's one thread, instead of in one call that would make every other client wait.
   */
  static final int MOVES_PER_PEEK = 5_000;

  /** A due entry as read (and decoded) before the claim. */
  record DueCandidate(int shard, OutboxEntry entry, long due) {}

  private PeekScript() {}

  static ScriptCall call(RedisKeys keys, int shard, Instant now, int max, long maxPayloadBytes) {
    return call(keys, shard, now, max, maxPayloadBytes, MOVES_PER_PEEK);
  }

  /** @param moves the most held-back entries this call moves to the held index */
  static ScriptCall call(RedisKeys keys, int shard, Instant now, int max, long maxPayloadBytes, int moves) {
    return new ScriptCall(SCRIPT, List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard)), bytes(keys.held(shard))),
        List.of(bytes(EntryFields.millis(now)), bytes(Integer.toString(max)), bytes(keys.entryPrefix(shard)),
            bytes(Long.toString(maxPayloadBytes)), bytes(Integer.toString(moves))));
  }

  /**
   * The candidates, each decoded: a damaged one throws here, before any claim writes anything.
   */
  static List<DueCandidate> candidates(int shard, Object reply) {
    List<?> found = ScriptCall.body(reply, "peek shard " + shard);
    List<DueCandidate> candidates = new ArrayList<>(found.size());
    for (Object item : found) {
      List<?> candidate = (List<?>) item;
      EntryId id = EntryId.of(text(candidate.get(0)));
      OutboxEntry entry = EntryFields.decode(id, RedisEntryCodec.hash((List<?>) candidate.get(2), 0));
      candidates.add(new DueCandidate(shard, entry, (long) Double.parseDouble(text(candidate.get(1)))));
    }
    return candidates;
  }
}
