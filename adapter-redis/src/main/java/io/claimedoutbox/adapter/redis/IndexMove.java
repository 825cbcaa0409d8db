package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.ArrayList;
import java.util.List;

/**
 * One change to a shard's indexes that a claimed transition makes, as {@code write.lua} runs it:
 * {@code ZADD key score member}, {@code ZREM key member}, {@code SADD key member}, or
 * {@code LEAVE key member}: the member leaves its ordering key's index and the key's next entry, held
 * back until now, becomes due.
 *
 * @param command {@code ZADD}, {@code ZREM}, {@code SADD} or {@code LEAVE}
 * @param key the index
 * @param score the score of a {@code ZADD}, otherwise {@code null}
 * @param member the entry id
 */
record IndexMove(String command, String key, String score, String member) {

  /**
   * The index moves that take a claimed entry to {@code next}: a renewal moves its lease in the
   * in-flight index; a failure makes it due again at its retry time; a delivery or a dead letter
   * joins the finished index (scored by finish time, for the purge) and leaves its ordering key's
   * index, so the key's next entry moves from the held index to the due index, and a dead letter
   * joins the dead-letter index (ordered by id).
   */
  static List<IndexMove> of(RedisKeys keys, int shard, OutboxEntry next) {
    String id = next.id().value();
    List<IndexMove> moves = new ArrayList<>(4);
    switch (next.status()) {
      case CLAIMED -> moves.add(zadd(keys.inflight(shard), dueMillis(next), id));
      case FAILED -> {
        moves.add(zrem(keys.inflight(shard), id));
        moves.add(zadd(keys.due(shard), dueMillis(next), id));
        moves.add(new IndexMove("SADD", keys.failed(shard), null, id));
      }
      case DELIVERED, DEAD_LETTERED -> {
        moves.add(zrem(keys.inflight(shard), id));
        moves.add(zadd(keys.finished(shard), EntryFields.millis(next.updatedAt()), id));
        next.message().orderingKey()
            .ifPresent(key -> moves.add(new IndexMove("LEAVE", keys.orderingKeyIndex(shard, key), null, id)));
        if (next.status() == EntryStatus.DEAD_LETTERED) {
          moves.add(zadd(keys.deadLetters(shard), "0", id));
        }
      }
      default -> throw new IllegalStateException("a claimed transition never leaves an entry " + next.status());
    }
    return moves;
  }

  private static IndexMove zadd(String key, String score, String member) {
    return new IndexMove("ZADD", key, score, member);
  }

  private static IndexMove zrem(String key, String member) {
    return new IndexMove("ZREM", key, null, member);
  }

  private static String dueMillis(OutboxEntry entry) {
    return EntryFields.millis(entry.dueAt().orElseThrow());
  }

  /** Appends this move's arguments, its key named by its position in the script's KEYS. */
  void addTo(List<byte[]> args, int keyIndex) {
    args.add(bytes(command));
    args.add(bytes(Integer.toString(keyIndex)));
    args.add(bytes(member));
    if (score != null) {
      args.add(bytes(score));
    }
  }
}
