package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * The key scheme. Every key of shard {@code s} carries the hash tag {@code {prefix:s}}, so one
 * script only ever touches keys of one Redis Cluster slot, and different shards land on different
 * slots (and, in a cluster, on different masters):
 *
 * <pre>
 * {prefix:s}:e:&lt;entry id&gt;   hash      the entry's fields
 * {prefix:s}:due            zset      PENDING and FAILED entry ids, scored by available / retry time, but
 *                                      those held back behind their ordering key's first unfinished entry
 * {prefix:s}:held           zset      PENDING entry ids held back behind their key's first, scored by due
 *                                      time; each moves to the due index when it becomes its key's first
 * {prefix:s}:inflight       zset      CLAIMED entry ids, scored by lease end
 * {prefix:s}:call:&lt;stamp&gt;    set       ids a claim call took, kept 10 minutes for client retries
 * {prefix:s}:k:&lt;key&gt;       zset      unfinished entry ids of one ordering key, scored by append time
 * {prefix:s}:failed         set       FAILED entry ids (for the counts)
 * {prefix:s}:finished       zset      DELIVERED and DEAD_LETTERED entry ids, scored by finish time (purge)
 * {prefix:s}:dead           zset      DEAD_LETTERED entry ids, all scored 0, so ordered by id
 * {prefix}:appended          channel   "entries were appended" (sharded publish on a Cluster)
 * </pre>
 *
 * <p>Entry ids name their shard: {@code <uuid v7>.<shard>}. The number of shards may grow later
 * (old ids keep naming their shard) but must never shrink below a shard that still holds entries.
 *
 * <p>Public so operators' tools and the adapter's test kit name keys exactly as the store does.
 * Immutable.
 */
public final class RedisKeys {

  /** Letters, digits and {@code . _ : -}: nothing that could open or close a hash tag. */
  private static final Pattern SAFE_PREFIX = Pattern.compile("[A-Za-z0-9._:-]+");
  static final int MAX_PREFIX_LENGTH = 64;
  static final int MAX_SHARDS = 1024;

  private final String prefix;
  private final int shards;

  /**
   * @param prefix the store's key prefix
   * @param shards the store's shard count
   * @throws IllegalArgumentException if the prefix could break a hash tag or the count is out of range
   */
  public RedisKeys(String prefix, int shards) {
    this.prefix = validPrefix(prefix);
    this.shards = validShards(shards);
  }

  static int validShards(int shards) {
    if (shards < 1 || shards > MAX_SHARDS) {
      throw new IllegalArgumentException("shards must be between 1 and " + MAX_SHARDS + ", was " + shards);
    }
    return shards;
  }

  static String validPrefix(String prefix) {
    Arguments.requireText(prefix, "keyPrefix", MAX_PREFIX_LENGTH);
    if (!SAFE_PREFIX.matcher(prefix).matches()) {
      throw new IllegalArgumentException("keyPrefix may contain only letters, digits and . _ : -"
          + " (braces would break the hash tags), was '" + prefix + "'");
    }
    return prefix;
  }

  /** @return how many shards the keys spread over */
  public int shards() {
    return shards;
  }

  /**
   * @param shard a shard
   * @return its hash tag, {@code {prefix:shard}}
   */
  public String tag(int shard) {
    return "{" + prefix + ":" + shard + "}";
  }

  /**
   * @param shard a shard
   * @return the start of every entry key of the shard
   */
  public String entryPrefix(int shard) {
    return tag(shard) + ":e:";
  }

  /**
   * @param shard the shard the id names
   * @param id an entry
   * @return the key of the entry's hash
   */
  public String entry(int shard, EntryId id) {
    return entry(shard, id.value());
  }

  /**
   * @param shard the shard the id names
   * @param id an entry's id as an index holds it
   * @return the key of the entry's hash
   */
  public String entry(int shard, String id) {
    return entryPrefix(shard) + id;
  }

  /**
   * @param shard a shard
   * @return the key of its set of claimable entries
   */
  public String due(int shard) {
    return tag(shard) + ":due";
  }

  /**
   * @param shard a shard
   * @return the key of its set of entries held back behind an earlier unfinished entry of their
   *     ordering key, scored by due time
   */
  public String held(int shard) {
    return tag(shard) + ":held";
  }

  /**
   * @param shard a shard
   * @return the key of its set of claimed entries, scored by lease end
   */
  public String inflight(int shard) {
    return tag(shard) + ":inflight";
  }

  /**
   * @param shard a shard
   * @return the key of its set of failed entries
   */
  public String failed(int shard) {
    return tag(shard) + ":failed";
  }

  /**
   * @param shard a shard
   * @return the key of its index of finished entries, scored by finish time
   */
  public String finished(int shard) {
    return tag(shard) + ":finished";
  }

  /**
   * @param shard a shard
   * @return the key of its index of dead letters, ordered by id
   */
  public String deadLetters(int shard) {
    return tag(shard) + ":dead";
  }

  String claimCall(int shard, String stamp) {
    return tag(shard) + ":call:" + stamp;
  }

  /**
   * The shard of every entry with this ordering key, so the key's entries and its index share one
   * slot: a stable hash of the key ({@link String#hashCode()} is fixed by the language).
   *
   * @param orderingKey an ordering key
   * @return its shard
   */
  public int shardOfOrderingKey(String orderingKey) {
    return Math.floorMod(orderingKey.hashCode(), shards);
  }

  /**
   * @param shard the key's shard
   * @param orderingKey an ordering key
   * @return the key of its index of unfinished entries, scored by append time
   */
  public String orderingKeyIndex(int shard, String orderingKey) {
    return tag(shard) + ":k:" + orderingKey;
  }

  EntryId newId(String uuid, int shard) {
    return EntryId.of(uuid + "." + shard);
  }

  /**
   * The shard an id names.
   *
   * @param id an entry id
   * @return its shard, or empty for ids this store did not mint (no such entry here)
   */
  public OptionalInt shardOf(EntryId id) {
    String value = id.value();
    int dot = value.lastIndexOf('.');
    if (dot < 0 || dot == value.length() - 1 || value.length() - dot > 5) {
      return OptionalInt.empty();
    }
    String digits = value.substring(dot + 1);
    if (!digits.chars().allMatch(Character::isDigit)) {
      return OptionalInt.empty();
    }
    int shard = Integer.parseInt(digits);
    return shard < shards ? OptionalInt.of(shard) : OptionalInt.empty();
  }

  /** @return the channel appends are announced on */
  String appendedChannel() {
    return "{" + prefix + "}:appended";
  }
}
