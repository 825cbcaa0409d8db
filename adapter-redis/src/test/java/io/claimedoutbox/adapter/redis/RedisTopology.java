package io.claimedoutbox.adapter.redis;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/** The two Redis deployments the adapter's tests run on, and where each is found. */
enum RedisTopology {
  STANDALONE("standalone Redis", "OUTBOX_REDIS_URL", "127.0.0.1:6379", 1),
  CLUSTER("Redis Cluster", "OUTBOX_REDIS_CLUSTER", "127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103", 4);

  final String displayName;
  final String variable;
  final String defaultNodes;
  final int shards;

  RedisTopology(String displayName, String variable, String defaultNodes, int shards) {
    this.displayName = displayName;
    this.variable = variable;
    this.defaultNodes = defaultNodes;
    this.shards = shards;
  }

  String nodes() {
    return Optional.ofNullable(System.getenv(variable)).orElse(defaultNodes).replace("redis://", "");
  }

  List<HostAndPort> nodeList() {
    return Arrays.stream(nodes().split(",")).map(String::strip).map(HostAndPort::from).toList();
  }

  UnifiedJedis connect() {
    Set<HostAndPort> nodes = Set.copyOf(nodeList());
    DefaultJedisClientConfig config = DefaultJedisClientConfig.builder()
        .connectionTimeoutMillis(2000).socketTimeoutMillis(5000).build();
    UnifiedJedis client;
    try {
      client = this == STANDALONE
          ? new JedisPooled(nodes.iterator().next(), config)
          : new JedisCluster(nodes, config);
      String pong = client.ping();
      if (!"PONG".equals(pong)) {
        throw new IllegalStateException("answered " + pong);
      }
    } catch (RuntimeException unreachable) {
      throw new IllegalStateException(howToProvide(), unreachable);
    }
    return client;
  }

  String howToProvide() {
    return displayName + " is required for these tests but is not reachable at " + nodes() + ". "
        + (this == STANDALONE
            ? "Start it (`bash .ci/run` starts redis-server on 127.0.0.1:6379) or set " + variable + "=host:port."
            : "Start it (`bash .ci/run` starts a three-master cluster on 127.0.0.1:7101-7103 with"
                + " redis-server --cluster-enabled yes and redis-cli --cluster create) or set " + variable
                + "=host:port,host:port,host:port.");
  }
}
