package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.ClaimKernel;
import io.claimedoutbox.port.spi.CommitSignal;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.KernelOutboxStoreWithOperations;
import io.claimedoutbox.port.spi.StoreTimeClock;
import io.claimedoutbox.port.spi.TransitionKernel;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * The outbox on Redis: one object implementing all three store contracts. Claims and transitions
 * are computed in Java by the domain and written by Lua scripts that only compare and write, so
 * each write is atomic with its comparison ({@link StoreCapability#ATOMIC_EVALUATION}: it never
 * reports {@code CONCURRENCY_LOST}).
 *
 * <p><b>Transitions</b> are the SPI's {@link TransitionKernel}'s, as on every other backend: each
 * is written where the entry is still at its claim's snapshot revision and held under the claim
 * ({@code write.lua}, with the fields and index moves computed here); one that was not written is
 * read again, and the claim fence decides from what it finds (or it is written again, at the
 * revision read, when the holder's own renewal moved it on).
 *
 * <p><b>Round trips.</b> A transition: 1 when it is applied, 2 when it is not (the write that did
 * not match, then the read the outcome is decided from); a batch of transitions
 * ({@link #tryTransitionAll}): 1 per shard holding some of its entries, plus a read per entry not
 * written. A claim batch: a look at each shard in two scripts (the due ids, then their hashes, read
 * and decoded, so a damaged row fails the batch before anything is written) plus one claim script per
 * shard that holds some of the oldest N: 3 on a standalone Redis. {@code find} is one {@code HGETALL}; {@code delete} one
 * script; an append batch one script.
 *
 * <p><b>Redis Cluster.</b> Keys are spread over {@code shards} hash tags ({@link RedisKeys}); a
 * script touches only its shard's keys. An append batch of entries without ordering keys goes to
 * one shard (round robin), so it stays atomic; an entry with an ordering key goes to its key's shard,
 * so a key's entries and its index share one slot, and a batch that spans shards is one script per
 * shard (atomic per shard).
 *
 * <p><b>Ordering keys.</b> Each shard keeps, per ordering key, an index of the key's unfinished
 * entries by append time; only a key's first unfinished entry waits in the due index (the others in
 * the held index), the claim script claims a keyed entry only while it is first in its key's index,
 * and a delivery or dead letter takes the entry out of it and makes the next one due. Blind client retries (JedisCluster retries
 * on connection errors) are harmless: a transition's write repeated compares a revision its first
 * run moved on and writes nothing more, and the kernel's read finds its stamp ({@code APPLIED}); a
 * claim repeated with the same call stamp returns the same claims.
 *
 * <p><b>Scripts</b> are {@code .lua} resources run by SHA-1 through typed calls ({@link ScriptCall});
 * a {@code NOSCRIPT} reply reloads the script on that node and runs it again. Scripts validate every
 * row they would write before writing anything and answer a damaged one with a structured reply,
 * raised here as {@link UndecodableEntryException}.
 *
 * <p>Needs Redis 6.2 or later. Thread-safe when the {@link UnifiedJedis} is (JedisPooled and
 * JedisCluster are).
 */
public final class RedisOutboxStore extends KernelOutboxStoreWithOperations {

  private final UnifiedJedis redis;
  private final RedisKeys keys;
  private final Clock clock;
  private final AtomicInteger nextAppendShard = new AtomicInteger();
  private final RedisCalls calls;
  private final TransitionKernel transitions;
  private final RedisClaimStorage claimStorage;
  private final ClaimKernel claims;
  private final RedisConditionalWrites rows;
  private final RedisOperations operations;
  private final CommitSignal commits;
  /** The channel to other JVMs, or {@code null} when turned off. */
  private final RedisCommitChannel channel;

  private RedisOutboxStore(UnifiedJedis redis, Builder builder) {
    this.redis = redis;
    this.keys = new RedisKeys(builder.keyPrefix, builder.shards);
    this.calls = new RedisCalls(redis, builder.acknowledgement);
    this.rows = new RedisConditionalWrites(redis, keys, calls);
    this.clock = builder.storeTime == null ? builder.clock : StoreTimeClock.of(this::serverNow, builder.storeTime);
    this.transitions = TransitionKernel.fromSnapshot(rows, clock);
    this.claimStorage = new RedisClaimStorage(redis, keys, calls, rows);
    this.claims = new ClaimKernel(claimStorage, clock);
    this.operations = new RedisOperations(redis, keys, clock, rows::read);
    this.channel = builder.listen && (redis instanceof JedisPooled || redis instanceof JedisCluster)
        ? new RedisCommitChannel(redis, keys.appendedChannel()) : null;
    this.commits = newCommitSignal(channel);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Drains of this store object are told after each append; unless
   * {@link Builder#listenAcrossProcesses} is off, they also hear appends of other processes through
   * a subscription (one connection while a drain runs) to {@code {prefix}:appended}.
   */
  @Override
  public CommitNotifications commitNotifications() {
    return commits;
  }

  /** The server's {@code TIME} (on a cluster, of the node that owns shard 0): one round trip. */
  private Instant serverNow() {
    List<?> time = (List<?>) calls.safely("read the server's time", () -> redis.eval("return redis.call('TIME')",
        List.of(keys.due(0)), List.of()));
    return Instant.ofEpochSecond(Long.parseLong(String.valueOf(time.get(0))))
        .plusNanos(1_000L * Long.parseLong(String.valueOf(time.get(1))));
  }

  /**
   * Starts building a store over a configured client ({@code JedisPooled}, {@code JedisCluster} or
   * any {@code UnifiedJedis}). The client is the caller's: its addresses, credentials, TLS and
   * pool are set on it, and the caller closes it; the store never does.
   *
   * @param client the client
   * @return a builder: key prefix {@code outbox}, 1 shard, the system UTC clock
   */
  public static Builder builder(UnifiedJedis client) {
    return new Builder(Arguments.requireNonNull(client, "client"));
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return Set.of(StoreCapability.ATOMIC_EVALUATION, StoreCapability.CLAIM_BY_KEY, StoreCapability.CLAIM_BY_KEYS,
        StoreCapability.CLAIM_APPENDED, StoreCapability.CLAIM_ON_APPEND);
  }

  /** @return the number of shards (hash tags) the outbox is spread over */
  public int shards() {
    return keys.shards();
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call per shard the batch touches. Each script is its own commit, so entries a
   * drain of this JVM takes ({@link StoreCapability#CLAIM_ON_APPEND}) are written claimed by it and
   * handed to it as soon as their shard's script returned; they are returned as written.
   */
  @Override
  protected List<OutboxEntry> appendChecked(List<OutboxMessage> batch) {
    int unkeyedShard = Math.floorMod(nextAppendShard.getAndIncrement(), keys.shards());
    Instant now = clock.instant();
    List<OutboxEntry> appended = new ArrayList<>(batch.size());
    for (OutboxMessage message : batch) {
      int shard = message.orderingKey().map(keys::shardOfOrderingKey).orElse(unkeyedShard);
      appended.add(OutboxEntry.appended(keys.newId(EntryId.generate().value(), shard), message, now, WriteStamp.fresh()));
    }
    List<OutboxEntry> entries = commits.claimOnAppend(appended, now);
    Map<Integer, List<OutboxEntry>> byShard = new TreeMap<>();
    for (OutboxEntry entry : entries) {
      byShard.computeIfAbsent(keys.shardOf(entry.id()).orElseThrow(), s -> new ArrayList<>()).add(entry);
    }
    List<OutboxEntry> written = new ArrayList<>(entries.size());
    try {
      byShard.forEach((shard, group) -> {
        ScriptCall append = AppendScript.call(keys, shard, group);
        ScriptCall.body(calls.write("append", append), "append");
        written.addAll(group);
      });
    } catch (RuntimeException failure) {
      List<OutboxEntry> notWritten = new ArrayList<>(entries);
      notWritten.removeAll(written);
      commits.notCommitted(notWritten);
      if (!written.isEmpty()) {
        commits.committed(written);
      }
      throw failure;
    }
    commits.committed(entries);
    return entries;
  }

  @Override
  protected Optional<OutboxEntry> read(EntryId id) {
    return rows.read(id);
  }

  @Override
  protected boolean remove(EntryId id) {
    OptionalInt shard = keys.shardOf(id);
    if (shard.isEmpty()) {
      return false;
    }
    // the key's index goes in KEYS, so the key is read first; an entry's ordering key never changes,
    // so the script finds another only if the id was deleted and appended again in between
    for (int attempt = 0; ; attempt++) {
      Optional<String> orderingKey = Optional.ofNullable(calls.safely("read the ordering key of " + id,
          () -> redis.hget(keys.entry(shard.getAsInt(), id), EntryFields.ORDERING_KEY)));
      ScriptCall delete = DeleteScript.call(keys, shard.getAsInt(), id, orderingKey);
      Object reply = RedisCalls.once("delete " + id, () -> delete.run(redis));
      if (!DeleteScript.moved(reply)) {
        return DeleteScript.deleted(reply);
      }
      if (attempt == 2) {
        throw new OutboxStoreException("outbox store failed: delete " + id + ": its ordering key kept changing");
      }
    }
  }

  @Override
  protected ClaimKernel claimKernel() {
    return claims;
  }

  /** The claim primitives the kernel runs on: for tests of the claim script. */
  RedisClaimStorage claimStorage() {
    return claimStorage;
  }

  /**
   * The kernel over one conditional-write script per shard that holds some of a batch's entries:
   * one round trip on a standalone Redis, plus one read per entry that was not written.
   */
  @Override
  protected TransitionKernel transitionKernel() {
    return transitions;
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script per shard over index sizes: constant time whatever the backlog.
   */
  @Override
  public StatusCounts countByStatus() {
    return calls.safely("count entries by status", operations::countByStatus);
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    return calls.safely("read the oldest due time", operations::oldestDueAge);
  }

  @Override
  protected List<OutboxEntry> deadLettersChecked(DeadLetterQuery query) {
    return calls.safely("list dead letters", () -> operations.deadLetters(query));
  }

  @Override
  protected RequeueResult requeueChecked(EntryId id) {
    return RedisCalls.once("requeue " + id, () -> operations.requeue(id));
  }

  @Override
  protected long countPurgeableChecked(Duration olderThan) {
    return calls.safely("count purgeable entries", () -> operations.countPurgeable(olderThan));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Finished entries sit in an index of their own, scored by finish time; the purge reads and
   * deletes from it only, so claims never wait behind it longer than one script of at most
   * {@code batchSize} deletions per shard.
   */
  @Override
  protected int purgeFinishedChecked(Duration olderThan, int batchSize) {
    return calls.safely("purge finished entries", () -> operations.purgeFinished(olderThan, batchSize));
  }

  /** Builds a {@link RedisOutboxStore}. Not thread-safe. */
  public static final class Builder {
    private final UnifiedJedis client;
    private String keyPrefix = "outbox";
    private int shards = 1;
    private Clock clock = Clock.systemUTC();
    private Duration storeTime;
    private boolean listen = true;
    private ReplicaAcknowledgement acknowledgement = ReplicaAcknowledgement.NONE;

    private Builder(UnifiedJedis client) {
      this.client = client;
    }

    /**
     * Whether drains of this store hear appends of other processes (default yes): each append (or
     * burst of appends) publishes one message after it returned, and a drain's store holds one
     * subscribed connection while the drain runs (a {@code JedisPooled} or {@code JedisCluster} client;
     * other clients get no subscription). Drains in the appending JVM are woken either way.
     *
     * @param value {@code false} to publish and subscribe nothing
     * @return this builder
     */
    public Builder listenAcrossProcesses(boolean value) {
      this.listen = value;
      return this;
    }

    /**
     * @param value the prefix of every key; letters, digits and {@code . _ : -}, at most 64 chars
     * @return this builder
     */
    public Builder keyPrefix(String value) {
      this.keyPrefix = RedisKeys.validPrefix(value);
      return this;
    }

    /**
     * @param value how many hash tags (cluster slots) to spread the outbox over, 1 to 1024; may grow
     *     later, never shrink while older shards hold entries
     * @return this builder
     */
    public Builder shards(int value) {
      this.shards = RedisKeys.validShards(value);
      return this;
    }

    /**
     * @param value where the store reads time; every worker's clock should agree within a lease
     * @return this builder
     */
    public Builder clock(Clock value) {
      this.clock = Arguments.requireNonNull(value, "clock");
      return this;
    }

    /**
     * Takes "now" from the Redis server ({@code TIME}) instead of a clock of this JVM, so workers whose
     * clocks disagree still decide leases alike ({@link StoreTimeClock}: asked once, then every {@link StoreTimeClock#DEFAULT_REFRESH},
     * counted forward in between). Replaces {@link #clock}.
     *
     * @return this builder
     */
    public Builder storeTime() {
      this.storeTime = StoreTimeClock.DEFAULT_REFRESH;
      return this;
    }

    /**
     * Counts a write (an append, a claim, a transition) as written only once {@code replicas} replicas
     * acknowledged it within {@code timeout} ({@code WAIT} on the write's connection, in the same round
     * trip), so a failover to one of them cannot undo an {@code APPLIED}. A transition the replicas did
     * not acknowledge in time throws {@link io.claimedoutbox.port.TransitionOutcomeUnknownException}
     * (settled later by its write stamp, as after a lost answer); an append or a claim throws
     * {@link io.claimedoutbox.port.OutboxStoreException} (the append may still be delivered, the claim
     * lapses with its lease). Operations ({@code requeue}, {@code purge}, {@code delete}) do not wait.
     * Default: no replicas, a write counts once the master ran it. {@code WAIT} makes a write
     * durable on that many replicas' memory, not on their disks.
     *
     * @param replicas how many replicas, 0 (the default: none) or more
     * @param timeout how long each write waits for them; positive
     * @return this builder
     * @throws IllegalArgumentException for a negative {@code replicas} or a timeout that is not positive
     */
    public Builder waitForReplicas(int replicas, Duration timeout) {
      if (replicas < 0) {
        throw new IllegalArgumentException("replicas must be 0 or more, was " + replicas);
      }
      Arguments.requireNonNull(timeout, "timeout");
      if (timeout.isZero() || timeout.isNegative()) {
        throw new IllegalArgumentException("timeout must be positive, was " + timeout);
      }
      this.acknowledgement = replicas == 0 ? ReplicaAcknowledgement.NONE : new ReplicaAcknowledgement(replicas, timeout);
      return this;
    }

    /** @return the store */
    public RedisOutboxStore build() {
      return new RedisOutboxStore(client, this);
    }
  }
}
