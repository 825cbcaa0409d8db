package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A claim's look at one shard before it claims: {@code due_ids.lua} reads the due heads of the due
 * and in-flight indexes, then {@link CandidateRead} reads their hashes with plain commands. Two round
 * trips (three when the payload limit could stop the read) instead of one script that would name entry
 * keys from the index members it read.
 */
final class DuePeek {

  private static final LuaScript DUE_IDS = LuaScript.load("due_ids");

  /** An index member whose score says it is due. */
  record DueId(String id, long due) {}

  /** A due entry as read (and decoded) before the claim. */
  record DueCandidate(int shard, OutboxEntry entry, long due) {}

  private DuePeek() {}

  static ScriptCall dueIds(RedisKeys keys, int shard, Instant now, int max) {
    return new ScriptCall(DUE_IDS, List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard))),
        List.of(bytes(EntryFields.millis(now)), bytes(Integer.toString(max))));
  }

  /**
   * The members of both indexes, oldest due first (ties by id), at most {@code max}: the entries a
   * claim of {@code max} may take, whichever index they wait in.
   */
  static List<DueId> oldestDue(Object reply, int shard, int max) {
    List<?> body = ScriptCall.body(reply, "peek shard " + shard);
    List<DueId> merged = new ArrayList<>();
    for (Object index : body) {
      List<?> members = (List<?>) index;
      for (int i = 0; i < members.size(); i += 2) {
        merged.add(new DueId(text(members.get(i)), (long) Double.parseDouble(text(members.get(i + 1)))));
      }
    }
    merged.sort(Comparator.comparingLong(DueId::due).thenComparing(DueId::id));
    return merged.size() > max ? merged.subList(0, max) : merged;
  }
}
