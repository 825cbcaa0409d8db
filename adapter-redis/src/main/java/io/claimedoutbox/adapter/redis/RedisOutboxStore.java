package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.adapter.redis.PeekScript.DueCandidate;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.Instants;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.LostAcknowledgement;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OperationArguments;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.AppendedClaims;
import io.claimedoutbox.port.spi.CommitSignal;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.spi.StoreTimeClock;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.domain.PayloadBudget;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.ZAddParams;

/**
 * The outbox on Redis: one object implementing all three store contracts, in which every claim
 * and every transition is one Lua script, so evaluation and write are one atomic step
 * ({@link StoreCapability#ATOMIC_EVALUATION}: it never reports {@code CONCURRENCY_LOST}).
 *
 * <p><b>Round trips.</b> A transition: 1 (the script decides missing, terminal, stale or applied
 * and answers with the entry); a batch of transitions ({@link #tryTransitionAll}): 1 per shard
 * holding some of its entries. A claim batch: one peek per shard (its oldest due entries, read and
 * decoded, so a damaged row fails the batch before anything is written) plus one claim script per
 * shard that holds some of the oldest N: 2 on a standalone Redis.
 * {@code find} is one {@code HGETALL}; {@code delete} one script; an append batch one script.
 *
 * <p><b>Redis Cluster.</b> Keys are spread over {@code shards} hash tags ({@link RedisKeys}); a
 * script touches only its shard's keys. An append batch of entries without ordering keys goes to
 * one shard (round robin), so it stays atomic; an entry with an ordering key goes to its key's shard,
 * so a key's entries and its index share one slot, and a batch that spans shards is one script per
 * shard (atomic per shard).
 *
 * <p><b>Ordering keys.</b> Each shard keeps, per ordering key, an index of the key's unfinished
 * entries by append time; the peek passes over an entry that is not first in its key's index, and
 * a delivery or dead letter takes the entry out of it. Blind client retries (JedisCluster retries on connection errors) are harmless:
 * a transition repeated with the same write stamp finds its stamp and answers {@code APPLIED}
 * without writing again; a claim repeated with the same call stamp returns the same claims.
 *
 * <p><b>Scripts</b> are {@code .lua} resources run by SHA-1 through typed calls ({@link ScriptCall});
 * a {@code NOSCRIPT} reply reloads the script on that node and runs it again. Scripts validate every
 * row they would write before writing anything and answer a damaged one with a structured reply,
 * raised here as {@link UndecodableEntryException}. A claim's new state is computed in Java by
 * {@link OutboxEntry#claimedBy}; the claim script only compares revisions and writes it.
 *
 * <p>Needs Redis 6.2 or later. Thread-safe when the {@link UnifiedJedis} is (JedisPooled and
 * JedisCluster are).
 */
public final class RedisOutboxStore implements OutboxClaimOutcomeStore, OutboxOperations {

  private final UnifiedJedis redis;
  private final RedisKeys keys;
  private final Clock clock;
  private final AtomicInteger nextAppendShard = new AtomicInteger();
  private final RedisOperations operations;
  private final CommitSignal commits;
  /** The channel to other JVMs, or {@code null} when turned off. */
  private final RedisCommitChannel channel;

  private RedisOutboxStore(UnifiedJedis redis, Builder builder) {
    this.redis = redis;
    this.keys = new RedisKeys(builder.keyPrefix, builder.shards);
    this.clock = builder.storeTime == null ? builder.clock : StoreTimeClock.of(this::serverNow, builder.storeTime);
    this.operations = new RedisOperations(redis, keys, clock, this::find);
    this.channel = builder.listen && (redis instanceof JedisPooled || redis instanceof JedisCluster)
        ? new RedisCommitChannel(redis, keys.appendedChannel()) : null;
    this.commits = channel != null ? CommitSignal.withRemote(channel::listen) : CommitSignal.local();
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
    List<?> time = (List<?>) runSafely("read the server's time", () -> redis.eval("return redis.call('TIME')",
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
    return Set.of(StoreCapability.ATOMIC_EVALUATION, StoreCapability.CLAIM_BY_KEY, StoreCapability.CLAIM_APPENDED,
        StoreCapability.CLAIM_ON_APPEND);
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
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    if (batch.isEmpty()) {
      return List.of();
    }
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
        ScriptCall.body(runSafely("append", () -> append.run(redis)), "append");
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
    if (channel != null && CommitSignal.concernsOtherProcesses(entries)) {
      channel.announce();
    }
    return entries;
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    Arguments.requireNonNull(id, "id");
    OptionalInt shard = keys.shardOf(id);
    if (shard.isEmpty()) {
      return Optional.empty();
    }
    Map<byte[], byte[]> raw = runSafely("find " + id, () -> redis.hgetAll(bytes(keys.entry(shard.getAsInt(), id))));
    if (raw.isEmpty()) {
      return Optional.empty();
    }
    Map<String, byte[]> hash = new HashMap<>();
    raw.forEach((field, value) -> hash.put(new String(field, StandardCharsets.UTF_8), value));
    return Optional.of(EntryFields.decode(id, hash));
  }

  @Override
  public boolean delete(EntryId id) {
    Arguments.requireNonNull(id, "id");
    OptionalInt shard = keys.shardOf(id);
    if (shard.isEmpty()) {
      return false;
    }
    ScriptCall delete = DeleteScript.call(keys, shard.getAsInt(), id);
    return DeleteScript.deleted(run("delete " + id, () -> delete.run(redis)));
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    StoreArguments.checkClaimDue(worker, maxEntries, maxPayloadBytes, lease);
    WriteStamp callStamp = WriteStamp.fresh();
    Instant now = Instants.stored(clock.instant());
    List<DueCandidate> oldest = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      oldest.addAll(peek(shard, now, maxEntries, maxPayloadBytes));
    }
    oldest.sort(Comparator.comparingLong(DueCandidate::due).thenComparing(candidate -> candidate.entry().id()));
    List<DueCandidate> chosen = new ArrayList<>();
    PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
    for (DueCandidate candidate : oldest) {
      if (chosen.size() == maxEntries || !budget.take(candidate.entry().message().payloadSize())) {
        break;
      }
      chosen.add(candidate);
    }
    Map<Integer, List<DueCandidate>> perShard = new TreeMap<>();
    chosen.forEach(candidate -> perShard.computeIfAbsent(candidate.shard(), s -> new ArrayList<>()).add(candidate));
    List<Claim> claims = new ArrayList<>(chosen.size());
    perShard.forEach((shard, candidates) -> claims.addAll(claimShard(shard, worker, candidates, now, lease, callStamp)));
    Map<EntryId, Integer> order = new HashMap<>();
    for (int i = 0; i < chosen.size(); i++) {
      order.put(chosen.get(i).entry().id(), i);
    }
    claims.sort(Comparator.comparing(claim -> order.get(claim.entryId())));
    return claims;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The head of the key's index of unfinished entries, read with the entry, then the claim script
   * on that one candidate, checked against the revision read: three round trips.
   */
  /**
   * {@inheritDoc}
   *
   * <p>No peek: one claim script per shard the entries are on (one round trip for a commit's
   * entries without ordering keys, which share a shard), the same compare-and-set on the appended
   * revision that {@link #claimDue} runs on the revisions it read.
   */
  @Override
  public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    List<OutboxEntry> checked = StoreArguments.checkClaimAppended(worker, appended, lease);
    Instant now = Instants.stored(clock.instant());
    Map<Integer, List<OutboxEntry>> perShard = new TreeMap<>();
    for (OutboxEntry entry : AppendedClaims.candidates(checked, now)) {
      keys.shardOf(entry.id()).ifPresent(shard -> perShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(entry));
    }
    WriteStamp callStamp = WriteStamp.fresh();
    List<Claim> claims = new ArrayList<>();
    perShard.forEach((shard, read) -> {
      List<OutboxEntry> claimed = read.stream().map(entry -> entry.claimedBy(worker, now, lease, callStamp)).toList();
      ScriptCall claim = ClaimScript.call(keys, shard, callStamp, read, claimed);
      String what = "claim appended entries for " + worker;
      claims.addAll(ClaimScript.claims(runSafely(what, () -> claim.run(redis)), claimed, what));
    });
    Map<EntryId, Integer> order = new HashMap<>();
    for (int i = 0; i < checked.size(); i++) {
      order.put(checked.get(i).id(), i);
    }
    claims.sort(Comparator.comparing(claim -> order.get(claim.entryId())));
    return claims;
  }

  @Override
  public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    StoreArguments.checkClaimNextOfKey(worker, orderingKey, lease);
    int shard = keys.shardOfOrderingKey(orderingKey);
    Instant now = Instants.stored(clock.instant());
    List<byte[]> head = runSafely("read the next entry of " + orderingKey,
        () -> redis.zrange(bytes(keys.orderingKeyIndex(shard, orderingKey)), 0, 0));
    if (head.isEmpty()) {
      return List.of();
    }
    Optional<OutboxEntry> next = find(EntryId.of(new String(head.get(0), StandardCharsets.UTF_8)));
    if (next.isEmpty() || !next.get().isDue(now)) {
      return List.of();
    }
    DueCandidate candidate = new DueCandidate(shard, next.get(), next.get().dueAt().orElseThrow().toEpochMilli());
    return claimShard(shard, worker, List.of(candidate), now, lease, WriteStamp.fresh());
  }

  /** The oldest due entries of one shard, each decoded: a damaged one throws before anything is written. */
  private List<DueCandidate> peek(int shard, Instant now, int maxEntries, long maxPayloadBytes) {
    ScriptCall peek = PeekScript.call(keys, shard, now, maxEntries, maxPayloadBytes);
    return PeekScript.candidates(shard, runSafely("peek shard " + shard, () -> peek.run(redis)));
  }

  /** Peeks one shard and claims up to {@code count} of it: a claim batch on a single shard. */
  List<Claim> claimShard(int shard, WorkerId worker, int count, Instant now, Duration lease, WriteStamp callStamp) {
    List<DueCandidate> candidates = peek(shard, now, count, StoreArguments.NO_PAYLOAD_LIMIT);
    candidates.sort(Comparator.comparingLong(DueCandidate::due).thenComparing(candidate -> candidate.entry().id()));
    return claimShard(shard, worker, candidates.subList(0, Math.min(count, candidates.size())), now, lease, callStamp);
  }

  /**
   * One claim script call on one shard, for candidates read before; the claimed entries are the
   * domain's. Repeated with the same call stamp (a blind client retry of this one command), it
   * returns the claims the first run made and claims nothing more.
   */
  private List<Claim> claimShard(
      int shard, WorkerId worker, List<DueCandidate> candidates, Instant now, Duration lease, WriteStamp callStamp) {
    List<OutboxEntry> read = candidates.stream().map(DueCandidate::entry).filter(entry -> isDueOrRepair(shard, entry, now))
        .toList();
    if (read.isEmpty()) {
      return List.of();
    }
    List<OutboxEntry> claimed = read.stream().map(entry -> entry.claimedBy(worker, now, lease, callStamp)).toList();
    ScriptCall claim = ClaimScript.call(keys, shard, callStamp, read, claimed);
    String what = "claim due entries for " + worker;
    return ClaimScript.claims(runSafely(what, () -> claim.run(redis)), claimed, what);
  }

  /**
   * Whether an entry an index offered as due is due by its own fields. The hash is the truth: an
   * index score that says "due" for an entry whose lease or retry time lies ahead (a hand edit, or
   * an index written by an older version) would make every claim fail on it; instead it is passed
   * over and its score raised to the entry's due time ({@code ZADD XX GT}: never re-adds a member a
   * script removed meanwhile, never lowers a score a renewal raised).
   */
  private boolean isDueOrRepair(int shard, OutboxEntry entry, Instant now) {
    if (entry.isDue(now)) {
      return true;
    }
    entry.dueAt().ifPresent(due -> {
      String index = entry.status() == EntryStatus.CLAIMED ? keys.inflight(shard) : keys.due(shard);
      runSafely("repair the due index of " + entry.id(), () -> redis.zadd(index, due.toEpochMilli(),
          entry.id().value(), ZAddParams.zAddParams().xx().gt()));
    });
    return false;
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    return tryTransition(claim, request, WriteStamp.fresh());
  }

  /** {@link #tryTransition(Claim, TransitionRequest)} with a given stamp; a repeat writes nothing. */
  ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request, WriteStamp stamp) {
    try {
      return transitionByShard(List.of(new ClaimTransition(claim, request)), List.of(stamp)).get(0);
    } catch (OutboxStoreException failure) {
      if (!(failure.getCause() instanceof JedisConnectionException)) {
        throw failure;
      }
      if (neverSent(failure)) {
        throw new OutboxStoreException("outbox store failed: " + request.kind() + " of " + claim.entryId()
            + ": could not connect, nothing was sent or written: " + failure.getCause().getMessage(), failure);
      }
      return LostAcknowledgement.resolve(claim, request.kind(), stamp, claim.snapshot().revision(), true,
          () -> find(claim.entryId()), failure);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script call per shard that holds some of the entries: one round trip on a standalone
   * Redis.
   */
  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    List<ClaimTransition> batch = StoreArguments.checkTransitionAll(transitions);
    List<WriteStamp> stamps = batch.stream().map(transition -> WriteStamp.fresh()).toList();
    if (batch.size() == 1) {
      return List.of(tryTransition(batch.get(0).claim(), batch.get(0).request(), stamps.get(0)));
    }
    return transitionByShard(batch, stamps);
  }

  /**
   * The batch's script calls, one per shard. When one fails, the shards before it were written and
   * the failed one may have been: the call then says which writes were sent with which stamps
   * ({@link TransitionOutcomeUnknownException#sentWriteStamp}), unless none was.
   */
  private List<ClaimTransitionResult> transitionByShard(List<ClaimTransition> batch, List<WriteStamp> stamps) {
    ClaimTransitionResult[] results = new ClaimTransitionResult[batch.size()];
    Map<Integer, List<Integer>> byShard = new TreeMap<>();
    for (int i = 0; i < batch.size(); i++) {
      OptionalInt shard = keys.shardOf(batch.get(i).entryId());
      if (shard.isEmpty()) {
        results[i] = ClaimTransitionResult.missing(batch.get(i).claim());
      } else {
        byShard.computeIfAbsent(shard.getAsInt(), s -> new ArrayList<>()).add(i);
      }
    }
    Instant now = Instants.stored(clock.instant());
    Map<EntryId, WriteStamp> sent = new LinkedHashMap<>();
    for (Map.Entry<Integer, List<Integer>> shard : byShard.entrySet()) {
      List<Integer> indexes = shard.getValue();
      List<ClaimTransition> group = indexes.stream().map(batch::get).toList();
      ScriptCall transition = TransitionScript.call(keys, shard.getKey(), now, group,
          indexes.stream().map(stamps::get).toList());
      String what = describe(group);
      Object reply;
      try {
        reply = runSafely(what, () -> transition.run(redis));
      } catch (OutboxStoreException failure) {
        if (failure.getCause() instanceof JedisConnectionException && !neverSent(failure)) {
          indexes.forEach(i -> sent.put(batch.get(i).entryId(), stamps.get(i)));
        }
        throw failedPart(batch, sent, failure);
      }
      indexes.forEach(i -> sent.put(batch.get(i).entryId(), stamps.get(i)));
      List<ClaimTransitionResult> groupResults;
      try {
        groupResults = TransitionScript.results(reply, group, what);
      } catch (OutboxStoreException undecodable) {
        throw failedPart(batch, sent, undecodable);
      }
      for (int j = 0; j < indexes.size(); j++) {
        results[indexes.get(j)] = groupResults.get(j);
      }
    }
    return List.of(results);
  }

  /** A batch that failed after some of its shards were written says which writes those were. */
  private static OutboxStoreException failedPart(List<ClaimTransition> batch, Map<EntryId, WriteStamp> sent,
      OutboxStoreException failure) {
    return sent.isEmpty() || batch.size() == 1 ? failure
        : TransitionOutcomeUnknownException.ofPartialBatch(batch, sent, failure);
  }

  private static String describe(List<ClaimTransition> group) {
    ClaimTransition first = group.get(0);
    return first.kind() + " of " + first.entryId() + (group.size() > 1 ? " and " + (group.size() - 1) + " more" : "");
  }

  /**
   * {@inheritDoc}
   *
   * <p>One script per shard over index sizes: constant time whatever the backlog.
   */
  @Override
  public StatusCounts countByStatus() {
    return runSafely("count entries by status", operations::countByStatus);
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    return runSafely("read the oldest due time", operations::oldestDueAge);
  }

  @Override
  public List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    OperationArguments.check(query);
    return runSafely("list dead letters", () -> operations.deadLetters(query));
  }

  @Override
  public RequeueResult requeue(EntryId id) {
    OperationArguments.checkId(id);
    return run("requeue " + id, () -> operations.requeue(id));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Finished entries sit in an index of their own, scored by finish time; the purge reads and
   * deletes from it only, so claims never wait behind it longer than one script of at most
   * {@code batchSize} deletions per shard.
   */
  @Override
  public long countPurgeable(Duration olderThan) {
    OperationArguments.checkAge(olderThan);
    return runSafely("count purgeable entries", () -> operations.countPurgeable(olderThan));
  }

  @Override
  public int purgeFinished(Duration olderThan, int batchSize) {
    OperationArguments.checkPurge(olderThan, batchSize);
    return runSafely("purge finished entries", () -> operations.purgeFinished(olderThan, batchSize));
  }

  /**
   * Runs a call that may be repeated blindly (a read, or a script that recognises its own earlier
   * run by its stamps) and repeats it once after a broken connection: a server restart or
   * {@code CLIENT KILL} leaves every idle pooled connection broken, and the first use of each would
   * otherwise fail. A {@link JedisPooled} drops its idle connections first, so the repeat gets a
   * fresh one (idle connections hold no state, so dropping them costs only a reconnect).
   */
  private <T> T runSafely(String what, Supplier<T> call) {
    try {
      return run(what, call);
    } catch (OutboxStoreException failure) {
      if (!(failure.getCause() instanceof JedisConnectionException)) {
        throw failure;
      }
      dropIdleConnections();
      try {
        return run(what, call);
      } catch (OutboxStoreException repeatFailure) {
        // A repeat that could not even connect proves nothing about the first try, which may have been sent.
        if (neverSent(repeatFailure) && !neverSent(failure)) {
          failure.addSuppressed(repeatFailure);
          throw failure;
        }
        throw repeatFailure;
      }
    }
  }

  /** After a broken connection the pool's idle ones are broken too (a restart, a failover): they go first. */
  private void dropIdleConnections() {
    if (redis instanceof JedisPooled pooled) {
      pooled.getPool().clear();
    } else if (redis instanceof JedisCluster cluster) {
      cluster.getClusterNodes().values().forEach(ConnectionPool::clear);
    }
  }

  /**
   * Whether the failure happened while connecting: the request never left this process. Jedis keeps
   * the socket's own failure as a suppressed exception of its "Failed to connect" (one per address
   * it tried), so those are read too; the store's own suppressed failures are not.
   */
  private static boolean neverSent(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (isConnectFailure(cause)) {
        return true;
      }
      if (cause instanceof JedisConnectionException connection) {
        for (Throwable attempt : connection.getSuppressed()) {
          if (isConnectFailure(attempt)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isConnectFailure(Throwable failure) {
    return failure instanceof ConnectException || failure instanceof UnknownHostException
        || failure instanceof NoRouteToHostException;
  }

  private static <T> T run(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (JedisException failure) {
      throw new OutboxStoreException("outbox store failed: " + what + ": " + failure.getMessage(), failure);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** Builds a {@link RedisOutboxStore}. Not thread-safe. */
  public static final class Builder {
    private final UnifiedJedis client;
    private String keyPrefix = "outbox";
    private int shards = 1;
    private Clock clock = Clock.systemUTC();
    private Duration storeTime;
    private boolean listen = true;

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

    /** @return the store */
    public RedisOutboxStore build() {
      return new RedisOutboxStore(client, this);
    }
  }
}
