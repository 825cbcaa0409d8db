package io.claimedoutbox.benchmarks;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis adapter under the benchmark's own key prefix, on a standalone server (one shard) or a
 * cluster (four shards). Keys are removed node by node with {@code SCAN} and {@code UNLINK}, one
 * hash tag at a time, so a cluster never sees a cross-slot command.
 */
final class RedisBackend implements ClaimedOutboxContender.Backend {

  private static final String PREFIX = "outbox-bench";

  private final String name;
  private final UnifiedJedis client;
  private final List<HostAndPort> nodes;
  private final int shards;
  private final RedisOutboxStore store;

  private RedisBackend(String name, UnifiedJedis client, List<HostAndPort> nodes, int shards) {
    this.name = name;
    this.client = client;
    this.nodes = nodes;
    this.shards = shards;
    this.store = RedisOutboxStore.builder(client).keyPrefix(PREFIX).shards(shards).build();
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
    for (HostAndPort node : nodes) {
      try (Jedis jedis = new Jedis(node)) {
        ScanParams pattern = new ScanParams().match("{" + PREFIX + ":*").count(1000);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
          ScanResult<String> slice = jedis.scan(cursor, pattern);
          Map<String, List<String>> byTag = new HashMap<>();
          for (String key : slice.getResult()) {
            byTag.computeIfAbsent(key.substring(0, key.indexOf('}') + 1), tag -> new ArrayList<>()).add(key);
          }
          byTag.values().forEach(keys -> jedis.unlink(keys.toArray(String[]::new)));
          cursor = slice.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
      }
    }
  }

  @Override
  public long undone() {
    long undone = 0;
    for (int shard = 0; shard < shards; shard++) {
      String tag = "{" + PREFIX + ":" + shard + "}";
      undone += client.zcard(tag + ":due") + client.zcard(tag + ":inflight");
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
