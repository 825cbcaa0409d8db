package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.Instants;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.StoredNotes;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.UndecodableEntryException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

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
 * script touches only its shard's keys. An append batch goes to one shard (round robin), so it
 * stays atomic. Blind client retries (JedisCluster retries on connection errors) are harmless:
 * a transition repeated with the same write stamp finds its stamp and answers {@code APPLIED}
 * without writing again; a claim repeated with the same call stamp returns the same claims.
 *
 * <p><b>Scripts</b> are {@code .lua} resources run by SHA-1; a {@code NOSCRIPT} reply reloads the
 * script on that node and runs it again. Scripts validate every row they would write before
 * writing anything, and report damaged rows as {@link UndecodableEntryException}.
 *
 * <p>Needs Redis 6.2 or later. Thread-safe when the {@link UnifiedJedis} is (JedisPooled and
 * JedisCluster are).
 */
public final class RedisOutboxStore implements OutboxClaimOutcomeStore {

  private static final LuaScript APPEND = LuaScript.load("append");
  private static final LuaScript PEEK = LuaScript.load("peek");
  private static final LuaScript CLAIM = LuaScript.load("claim");
  private static final LuaScript TRANSITION = LuaScript.load("transition");
  private static final LuaScript DELETE = LuaScript.load("delete");

  private static final Pattern UNDECODABLE = Pattern.compile("OUTBOX_UNDECODABLE (\\S+) (.*)", Pattern.DOTALL);

  private final UnifiedJedis redis;
  private final RedisKeys keys;
  private final Clock clock;
  private final AtomicInteger nextAppendShard = new AtomicInteger();

  private RedisOutboxStore(UnifiedJedis redis, Builder builder) {
    this.redis = redis;
    this.keys = new RedisKeys(builder.keyPrefix, builder.shards);
    this.clock = builder.clock;
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
    return Set.of(StoreCapability.ATOMIC_EVALUATION);
  }

  /** @return the number of shards (hash tags) the outbox is spread over */
  public int shards() {
    return keys.shards();
  }

  @Override
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    if (batch.isEmpty()) {
      return List.of();
    }
    int shard = Math.floorMod(nextAppendShard.getAndIncrement(), keys.shards());
    Instant now = clock.instant();
    List<OutboxEntry> entries = new ArrayList<>(batch.size());
    List<byte[]> args = new ArrayList<>();
    args.add(bytes(keys.entryPrefix(shard)));
    args.add(bytes(Integer.toString(batch.size())));
    for (OutboxMessage message : batch) {
      EntryId id = keys.newId(EntryId.generate().value(), shard);
      OutboxEntry entry = OutboxEntry.appended(id, message, now, WriteStamp.fresh());
      List<byte[]> fields = RedisEntryCodec.appendFields(entry);
      args.add(bytes(id.value()));
      args.add(bytes(EntryFields.millis(entry.dueAt().orElseThrow())));
      args.add(bytes(Integer.toString(fields.size() / 2)));
      args.addAll(fields);
      entries.add(entry);
    }
    runSafely("append", () -> APPEND.run(redis, List.of(bytes(keys.due(shard))), args));
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
    int s = shard.getAsInt();
    Object deleted = run("delete " + id, () -> DELETE.run(redis,
        List.of(bytes(keys.entry(s, id)), bytes(keys.due(s)), bytes(keys.inflight(s))),
        List.of(bytes(id.value()))));
    return ((Long) deleted) == 1L;
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, Duration lease) {
    StoreArguments.checkClaimDue(worker, maxEntries, lease);
    WriteStamp callStamp = WriteStamp.fresh();
    Instant now = Instants.stored(clock.instant());
    List<DueCandidate> oldest = new ArrayList<>();
    for (int shard = 0; shard < keys.shards(); shard++) {
      oldest.addAll(peek(shard, now, maxEntries));
    }
    oldest.sort(Comparator.comparingLong(DueCandidate::due).thenComparing(candidate -> candidate.entry().id()));
    List<DueCandidate> chosen = oldest.subList(0, Math.min(maxEntries, oldest.size()));
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

  /** A due entry as read (and decoded) before the claim. */
  record DueCandidate(int shard, OutboxEntry entry, long due) {}

  /**
   * The oldest due entries of one shard, each decoded: a damaged one throws here, before the claim
   * writes anything.
   */
  private List<DueCandidate> peek(int shard, Instant now, int maxEntries) {
    List<?> reply = (List<?>) runSafely("peek shard " + shard, () -> PEEK.run(redis,
        List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard))),
        List.of(bytes(EntryFields.millis(now)), bytes(Integer.toString(maxEntries)),
            bytes(keys.entryPrefix(shard)))));
    List<DueCandidate> candidates = new ArrayList<>(reply.size());
    for (Object item : reply) {
      List<?> candidate = (List<?>) item;
      EntryId id = EntryId.of(text(candidate.get(0)));
      OutboxEntry entry = EntryFields.decode(id, RedisEntryCodec.hash(candidate, 2));
      candidates.add(new DueCandidate(shard, entry, (long) Double.parseDouble(text(candidate.get(1)))));
    }
    return candidates;
  }

  /** Peeks one shard and claims up to {@code count} of it: a claim batch on a single shard. */
  List<Claim> claimShard(int shard, WorkerId worker, int count, Instant now, Duration lease, WriteStamp callStamp) {
    List<DueCandidate> candidates = peek(shard, now, count);
    candidates.sort(Comparator.comparingLong(DueCandidate::due).thenComparing(candidate -> candidate.entry().id()));
    return claimShard(shard, worker, candidates.subList(0, Math.min(count, candidates.size())), now, lease, callStamp);
  }

  /**
   * One claim script call on one shard, for candidates read before. Repeated with the same call
   * stamp (a blind client retry of this one command), it returns the claims the first run made and
   * claims nothing more.
   */
  private List<Claim> claimShard(
      int shard, WorkerId worker, List<DueCandidate> candidates, Instant now, Duration lease, WriteStamp callStamp) {
    List<byte[]> args = new ArrayList<>(5 + 3 * candidates.size());
    args.add(bytes(keys.entryPrefix(shard)));
    args.add(bytes(EntryFields.millis(now)));
    args.add(bytes(worker.value()));
    args.add(bytes(EntryFields.millis(Instants.stored(now.plus(lease)))));
    args.add(bytes(callStamp.toString()));
    for (DueCandidate candidate : candidates) {
      args.add(bytes(candidate.entry().id().value()));
      args.add(bytes(Long.toString(candidate.entry().revision())));
      args.add(bytes(UUID.randomUUID().toString()));
    }
    List<?> reply = (List<?>) runSafely("claim due entries for " + worker, () -> CLAIM.run(redis,
        List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard)), bytes(keys.claimCall(shard, callStamp.toString()))),
        args));
    List<Claim> claims = new ArrayList<>(reply.size());
    for (Object row : reply) {
      Map<String, byte[]> hash = RedisEntryCodec.hash((List<?>) row, 0);
      EntryId id = EntryId.of(new String(hash.getOrDefault(EntryFields.ID, new byte[0]), StandardCharsets.UTF_8));
      claims.add(Claim.of(EntryFields.decode(id, hash)));
    }
    return claims;
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    return tryTransition(claim, request, WriteStamp.fresh());
  }

  /** {@link #tryTransition(Claim, TransitionRequest)} with a given stamp; a repeat writes nothing. */
  ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request, WriteStamp stamp) {
    return transitionByShard(List.of(new ClaimTransition(claim, request)), List.of(stamp)).get(0);
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
    return transitionByShard(batch, batch.stream().map(transition -> WriteStamp.fresh()).toList());
  }

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
    byShard.forEach((shard, indexes) -> {
      List<byte[]> keyList = new ArrayList<>(List.of(bytes(keys.due(shard)), bytes(keys.inflight(shard))));
      List<byte[]> args = new ArrayList<>();
      args.add(bytes(EntryFields.millis(now)));
      for (int i : indexes) {
        Claim claim = batch.get(i).claim();
        keyList.add(bytes(keys.entry(shard, claim.entryId())));
        args.add(bytes(claim.entryId().value()));
        args.add(bytes(batch.get(i).kind().name()));
        args.add(bytes(claim.owner().value()));
        args.add(bytes(claim.token().nonce().toString()));
        args.add(bytes(stamps.get(i).toString()));
        args.addAll(requestArguments(batch.get(i).request(), now));
      }
      List<?> replies = (List<?>) runSafely(describe(batch, indexes), () -> TRANSITION.run(redis, keyList, args));
      for (int j = 0; j < indexes.size(); j++) {
        int i = indexes.get(j);
        results[i] = decode(batch.get(i).claim(), (List<?>) replies.get(j));
      }
    });
    return List.of(results);
  }

  private static String describe(List<ClaimTransition> batch, List<Integer> indexes) {
    ClaimTransition first = batch.get(indexes.get(0));
    return first.kind() + " of " + first.entryId() + (indexes.size() > 1 ? " and " + (indexes.size() - 1) + " more" : "");
  }

  private static ClaimTransitionResult decode(Claim claim, List<?> reply) {
    String outcome = text(reply.get(0));
    if (outcome.equals("MISSING")) {
      return ClaimTransitionResult.missing(claim);
    }
    OutboxEntry entry = EntryFields.decode(claim.entryId(), RedisEntryCodec.hash(reply, 1));
    return switch (outcome) {
      case "APPLIED" -> ClaimTransitionResult.applied(entry);
      case "TERMINAL" -> ClaimTransitionResult.terminal(entry);
      case "STALE_CLAIM" -> ClaimTransitionResult.staleClaim(entry);
      default -> throw new OutboxStoreException("transition script answered an unknown outcome " + outcome);
    };
  }

  /** The three request arguments of one element of the transition script. */
  private static List<byte[]> requestArguments(TransitionRequest request, Instant now) {
    if (request instanceof DeliveryReceipt receipt) {
      return List.of(bytes(receipt.reference().isPresent() ? "1" : "0"),
          bytes(StoredNotes.of(receipt.reference().orElse(""))), bytes(""));
    }
    if (request instanceof RetryableFailure failure) {
      return List.of(bytes(EntryFields.millis(failure.retryAt())),
          bytes(StoredNotes.of(failure.error())), bytes(""));
    }
    if (request instanceof DeadLetter deadLetter) {
      return List.of(bytes(StoredNotes.of(deadLetter.reason())), bytes(""), bytes(""));
    }
    LeaseRenewal renewal = (LeaseRenewal) request;
    return List.of(bytes(EntryFields.millis(Instants.stored(now.plus(renewal.extension())))),
        bytes(renewal.progress().isPresent() ? "1" : "0"),
        bytes(StoredNotes.of(renewal.progress().orElse(""))));
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
      if (redis instanceof JedisPooled pooled) {
        pooled.getPool().clear();
      }
      return run(what, call);
    }
  }

  private static <T> T run(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (JedisDataException reply) {
      Matcher undecodable = UNDECODABLE.matcher(String.valueOf(reply.getMessage()));
      if (undecodable.find()) {
        throw new UndecodableEntryException(EntryId.of(undecodable.group(1)), undecodable.group(2), reply);
      }
      throw new OutboxStoreException("outbox store failed: " + what + ": " + reply.getMessage(), reply);
    } catch (JedisException failure) {
      throw new OutboxStoreException("outbox store failed: " + what + ": " + failure.getMessage(), failure);
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(Object reply) {
    return new String((byte[]) reply, StandardCharsets.UTF_8);
  }

  /** Builds a {@link RedisOutboxStore}. Not thread-safe. */
  public static final class Builder {
    private final UnifiedJedis client;
    private String keyPrefix = "outbox";
    private int shards = 1;
    private Clock clock = Clock.systemUTC();

    private Builder(UnifiedJedis client) {
      this.client = client;
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
      if (value < 1 || value > RedisKeys.MAX_SHARDS) {
        throw new IllegalArgumentException("shards must be between 1 and " + RedisKeys.MAX_SHARDS + ", was " + value);
      }
      this.shards = value;
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

    /** @return the store */
    public RedisOutboxStore build() {
      return new RedisOutboxStore(client, this);
    }
  }
}
