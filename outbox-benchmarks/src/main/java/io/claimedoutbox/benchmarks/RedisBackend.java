package io.claimedoutbox.benchmarks;

import io.claimedoutbox.adapter.redis.RedisKeys;
import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis adapter under the benchmark's own key prefix, on a standalone server (one shard) or a
 * cluster (four shards), through the adapter's test kit, which removes the keys shard by shard with
 * {@code SCAN} and {@code UNLINK}.
 */
final class RedisBackend implements ClaimedOutboxContender.Backend {

  private static final String PREFIX = "outbox-bench";

  private final String name;
  private final UnifiedJedis client;
  private final RedisTestKit kit;
  private final OutboxClaimOutcomeStore store;

  private RedisBackend(String name, UnifiedJedis client, List<HostAndPort> nodes, int shards) {
    this.name = name;
    this.client = client;
    this.kit = RedisTestKit.create(client, nodes, PREFIX, shards, name);
    this.store = kit.storeBuilder().build();
  }

  static RedisBackend standalone(HostAndPort server) {
    return new RedisBackend("Redis", new JedisPooled(server), List.of(server), 1);
  }

  static RedisBackend cluster(List<HostAndPort> nodes) {
    return new RedisBackend("Redis Cluster (" + nodes.size() + " masters, 4 shards)",
        new JedisCluster(new HashSet<>(nodes)), nodes, 4);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public void reset() {
    kit.deleteAll();
  }

  @Override
  public long undone() {
    RedisKeys keys = kit.keys();
    long undone = 0;
    for (int shard = 0; shard < keys.shards(); shard++) {
      undone += client.zcard(keys.due(shard)) + client.zcard(keys.held(shard)) + client.zcard(keys.inflight(shard));
    }
    return undone;
  }

  @Override
  public void close() {
    reset();
    client.close();
  }

  static Set<HostAndPort> parse(String list) {
    Set<HostAndPort> nodes = new HashSet<>();
    for (String node : list.split(",")) {
      nodes.add(HostAndPort.from(node.strip()));
    }
    return nodes;
  }
}
