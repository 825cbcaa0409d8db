package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.conformance.ClosingStore;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * The conformance fixture for the Redis adapter on one topology. Raw reads use plain commands on
 * the same server; cleaning deletes this fixture's keys only, shard by shard (on the node that owns
 * the shard's slot), so the shared server's other data is left alone.
 */
final class RedisStoreFixture implements OutboxStoreFixture {

  static final String PREFIX = "outbox-conformance";
  private static final Map<RedisTopology, RedisStoreFixture> OPEN = new EnumMap<>(RedisTopology.class);

  private static final String DELETE_MATCHING =
      "local n = 0 for _, key in ipairs(redis.call('KEYS', ARGV[1])) do n = n + redis.call('DEL', key) end return n";
  private static final String COUNT_MATCHING = "return #redis.call('KEYS', ARGV[1])";

  final RedisTopology topology;
  final UnifiedJedis client;
  final RedisKeys keys;

  private RedisStoreFixture(RedisTopology topology) {
    this.topology = topology;
    this.client = topology.connect();
    this.keys = new RedisKeys(PREFIX, topology.shards);
    System.out.println("Conformance backend: Redis adapter on " + topology.displayName + " at "
        + topology.nodes() + " with " + topology.shards + " shard(s)");
  }

  static synchronized RedisStoreFixture of(RedisTopology topology) {
    return OPEN.computeIfAbsent(topology, RedisStoreFixture::new);
  }

  RedisOutboxStore.Builder storeBuilder() {
    return RedisOutboxStore.builder(client).keyPrefix(PREFIX).shards(topology.shards);
  }

  @Override
  public String backendName() {
    return "Redis adapter on " + topology.displayName;
  }

  @Override
  public Set<FixtureCapability> capabilities() {
    return EnumSet.of(FixtureCapability.UNREACHABLE_BACKEND);
  }

  @Override
  public void clean() {
    for (int shard = 0; shard < keys.shards(); shard++) {
      client.eval(DELETE_MATCHING, List.of(keys.due(shard)), List.of(keys.tag(shard) + ":*"));
    }
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return storeBuilder().clock(context.clock()).build();
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    OptionalInt shard = keys.shardOf(id);
    if (shard.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> hash = client.hgetAll(keys.entry(shard.getAsInt(), id));
    if (hash.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new RawEntryState(hash.get("id"), hash.get("status"), hash.get("owner"),
        Long.parseLong(hash.get("claimGeneration")), Long.parseLong(hash.get("revision")),
        hash.get("writeStamp")));
  }

  @Override
  public long countRaw() {
    long count = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      count += (Long) client.eval(COUNT_MATCHING, List.of(keys.due(shard)), List.of(keys.entryPrefix(shard) + "*"));
    }
    return count;
  }

  @Override
  public void corrupt(EntryId id) {
    client.hdel(keys.entry(keys.shardOf(id).orElseThrow(), id), "topic");
  }

  @Override
  public Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    JedisPooled dead = new JedisPooled(new HostAndPort("127.0.0.1", 1),
        DefaultJedisClientConfig.builder().connectionTimeoutMillis(250).socketTimeoutMillis(250).build());
    RedisOutboxStore store = RedisOutboxStore.builder(dead).keyPrefix(PREFIX).clock(context.clock()).build();
    return Optional.of(new ClosingStore(store, dead::close));
  }
}
