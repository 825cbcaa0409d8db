package io.claimedoutbox.adapter.redis.testkit;

import io.claimedoutbox.adapter.redis.RedisKeys;
import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.conformance.BackendFixture;
import io.claimedoutbox.conformance.ClosingStore;
import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.EntryFields;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.HostAndPortMapper;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis adapter's conformance fixture. Cleaning deletes the kit's keys only, shard by shard
 * (each on the node that owns the shard's slot), so a shared server's other data is left alone.
 */
final class RedisStoreFixture extends BackendFixture {

  private static final String DELETE_MATCHING =
      "local n = 0 for _, key in ipairs(redis.call('KEYS', ARGV[1])) do n = n + redis.call('DEL', key) end return n";
  private static final String COUNT_MATCHING = "return #redis.call('KEYS', ARGV[1])";

  private final RedisTestKit kit;
  private final RedisKeys keys;

  RedisStoreFixture(RedisTestKit kit, String backendName) {
    super(backendName, Set.of(FixtureCapability.UNREACHABLE_BACKEND, FixtureCapability.FAULT_PROXY,
        FixtureCapability.STORE_TIME));
    this.kit = kit;
    this.keys = kit.keys();
  }

  @Override
  public void clean() {
    for (int shard = 0; shard < keys.shards(); shard++) {
      kit.client().eval(DELETE_MATCHING, List.of(keys.due(shard)), List.of(keys.tag(shard) + ":*"));
    }
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return kit.storeBuilder().clock(context.clock()).build();
  }

  @Override
  public OutboxClaimOutcomeStore openStoreOnStoreTime(FixtureContext context) {
    return kit.storeBuilder().clock(context.clock()).storeTime().build();
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    OptionalInt shard = keys.shardOf(id);
    if (shard.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> hash = kit.client().hgetAll(keys.entry(shard.getAsInt(), id));
    if (hash.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new RawEntryState(hash.get(EntryFields.ID), hash.get(EntryFields.STATUS),
        hash.get(EntryFields.OWNER), Long.parseLong(hash.get(EntryFields.CLAIM_GENERATION)),
        Long.parseLong(hash.get(EntryFields.REVISION)), hash.get(EntryFields.WRITE_STAMP)));
  }

  @Override
  public long countRaw() {
    long count = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      count += (Long) kit.client().eval(COUNT_MATCHING, List.of(keys.due(shard)), List.of(keys.entryPrefix(shard) + "*"));
    }
    return count;
  }

  @Override
  public void corrupt(EntryId id) {
    kit.client().hdel(keys.entry(keys.shardOf(id).orElseThrow(), id), EntryFields.TOPIC);
  }

  /**
   * A client of its own whose every socket — to the seed and to each cluster node the topology names
   * — is mapped to the suite's proxy in front of that node.
   */
  @Override
  public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
    HostAndPortMapper throughProxy = node -> {
      InetSocketAddress proxy = proxies.proxyFor(node.getHost(), node.getPort());
      return new HostAndPort(proxy.getHostString(), proxy.getPort());
    };
    DefaultJedisClientConfig config = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(2_000).socketTimeoutMillis(5_000).hostAndPortMapper(throughProxy).build();
    // JedisCluster retries a broken connection itself, sleeping between tries for up to maxTotalRetriesDuration
    // (its default, socket timeout x attempts, is 25 s): a short total keeps the fault rules quick here
    UnifiedJedis client = kit.client() instanceof JedisCluster
        ? new JedisCluster(Set.copyOf(kit.nodes()), config, 5, Duration.ofSeconds(1))
        : new JedisPooled(kit.nodes().get(0), config);
    RedisOutboxStore store = RedisOutboxStore.builder(client).keyPrefix(kit.keyPrefix()).shards(keys.shards())
        .clock(context.clock()).build();
    return new ClosingStore(store, client::close);
  }

  @Override
  public Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    JedisPooled dead = new JedisPooled(new HostAndPort("127.0.0.1", 1),
        DefaultJedisClientConfig.builder().connectionTimeoutMillis(250).socketTimeoutMillis(250).build());
    RedisOutboxStore deadStore = RedisOutboxStore.builder(dead).keyPrefix("outbox-unreachable")
        .clock(context.clock()).build();
    return Optional.of(new ClosingStore(deadStore, dead::close));
  }
}
