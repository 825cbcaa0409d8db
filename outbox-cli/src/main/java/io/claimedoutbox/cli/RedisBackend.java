package io.claimedoutbox.cli;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis adapter on a standalone server, under a key prefix of its own ({@code outbox-cli-…})
 * whose keys are deleted when the session closes.
 */
final class RedisBackend implements BackendSession {

  private static final String DELETE_MATCHING =
      "local n = 0 for _, key in ipairs(redis.call('KEYS', ARGV[1])) do n = n + redis.call('DEL', key) end return n";
  private static final String TRIVIAL = "return redis.call('SET', KEYS[1], ARGV[1])";

  private final String prefix = "outbox-cli-" + UUID.randomUUID().toString().substring(0, 8);
  private final JedisPooled redis;
  private final RedisOutboxStore store;
  private final String label;

  private RedisBackend(String url, URI uri, Clock clock) {
    try {
      this.redis = new JedisPooled(uri);
      String info = redis.info("server");
      this.label = "Redis " + info.lines().filter(line -> line.startsWith("redis_version:"))
          .map(line -> line.substring("redis_version:".length()).strip()).findFirst().orElse("") + " (Lua scripts)";
    } catch (RuntimeException unreachable) {
      throw new UnreachableBackendException("cannot reach Redis at " + url + ": "
          + JdbcBackend.rootMessage(unreachable), unreachable);
    }
    this.store = RedisOutboxStore.builder(redis).keyPrefix(prefix).clock(clock).build();
  }

  static RedisBackend open(String url, Clock clock) {
    try {
      URI uri = new URI(url);
      if (uri.getHost() == null) {
        throw new UsageException("malformed Redis URL '" + url + "'; expected redis://[user:password@]host:port");
      }
      return new RedisBackend(url, uri, clock);
    } catch (URISyntaxException malformed) {
      throw new UsageException("malformed Redis URL '" + url + "': " + malformed.getMessage());
    }
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public OutboxStoreFixture conformanceFixture() {
    return new RedisFixture();
  }

  /** Hashes read and damaged with plain commands, under the session's own key prefix (one shard). */
  private final class RedisFixture implements OutboxStoreFixture {
    private final String tag = "{" + prefix + ":0}";

    @Override
    public String backendName() {
      return label;
    }

    @Override
    public Set<FixtureCapability> capabilities() {
      return Set.of();
    }

    @Override
    public void clean() {
      redis.eval(DELETE_MATCHING, List.of(tag + ":due"), List.of(tag + ":*"));
    }

    @Override
    public OutboxClaimOutcomeStore openStore(FixtureContext context) {
      return RedisOutboxStore.builder(redis).keyPrefix(prefix).clock(context.clock()).build();
    }

    @Override
    public Optional<RawEntryState> readRaw(EntryId id) {
      Map<String, String> hash = redis.hgetAll(tag + ":e:" + id.value());
      return hash.isEmpty() ? Optional.empty() : Optional.of(new RawEntryState(hash.get("id"), hash.get("status"),
          hash.get("owner"), Long.parseLong(hash.get("claimGeneration")), Long.parseLong(hash.get("revision")),
          hash.get("writeStamp")));
    }

    @Override
    public long countRaw() {
      return (Long) redis.eval("return #redis.call('KEYS', ARGV[1])", List.of(tag + ":due"), List.of(tag + ":e:*"));
    }

    @Override
    public void corrupt(EntryId id) {
      redis.hdel(tag + ":e:" + id.value(), "topic");
    }
  }

  @Override
  public RawCompareAndSet rawCompareAndSet(int keys) {
    byte[] sha = redis.scriptLoad(TRIVIAL).getBytes(StandardCharsets.US_ASCII);
    return new RawCompareAndSet() {
      @Override
      public boolean compareAndSet(int key, long expected) {
        byte[] name = ("{" + prefix + ":raw}:" + key).getBytes(StandardCharsets.UTF_8);
        redis.evalsha(sha, List.of(name), List.of(Long.toString(expected + 1).getBytes(StandardCharsets.UTF_8)));
        return true;
      }

      @Override
      public void close() {
      }
    };
  }

  /** Deletes the session's keys in slices, so a million-entry backlog never blocks the server for long. */
  @Override
  public void close() {
    ScanParams pattern = new ScanParams().match("{" + prefix + ":*").count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> slice = redis.scan(cursor, pattern);
      if (!slice.getResult().isEmpty()) {
        redis.unlink(slice.getResult().toArray(String[]::new));
      }
      cursor = slice.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
    redis.close();
  }
}
