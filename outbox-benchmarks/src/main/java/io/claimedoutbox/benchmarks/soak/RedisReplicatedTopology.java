package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisSentineled;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis adapter on a replicated Redis of {@code .ci/topology}: a master with one replica and three
 * sentinels, reached through the sentinels ({@link JedisSentineled} follows a failover), or a Cluster
 * with a replica per master ({@link JedisCluster}, 4 shards); with or without
 * {@link RedisOutboxStore.Builder#waitForReplicas} for one replica. Each run writes under a key prefix
 * of its own.
 */
final class RedisReplicatedTopology implements Topology {

  /** Which replicated Redis. */
  enum Kind {
    SENTINEL("redis-replica", "Redis master + replica + 3 sentinels",
        "kill -9 of the master (every second one 0.3 s after the replica was cut off it), sentinels promote"
            + " the replica, old master back as a replica", List.of(6391, 6392)),
    CLUSTER("redis-cluster-replicas", "Redis Cluster, 3 masters with a replica each, 4 shards",
        "kill -9 of the master of shard 0, its replica takes over, old master back as a replica",
        List.of(7111, 7112, 7113, 7114, 7115, 7116));

    final String fixture;
    final String title;
    final String fault;
    final List<Integer> ports;

    Kind(String fixture, String title, String fault, List<Integer> ports) {
      this.fixture = fixture;
      this.title = title;
      this.fault = fault;
      this.ports = ports;
    }
  }

  private static final Duration WAIT_TIMEOUT = Duration.ofSeconds(1);

  private final TopologyScript script;
  private final Kind kind;
  private final boolean waitForReplica;
  private final String prefix = "outbox-topology-soak-" + Long.toString(System.currentTimeMillis(), 36);
  private final UnifiedJedis client;
  private final RedisOutboxStore store;
  private final WritePositions positions;

  RedisReplicatedTopology(TopologyScript script, Kind kind, boolean waitForReplica) throws Exception {
    this.script = script;
    this.kind = kind;
    this.waitForReplica = waitForReplica;
    script.run("topology", "start", kind.fixture);
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(16);
    JedisClientConfig config = DefaultJedisClientConfig.builder().socketTimeoutMillis(2_000)
        .clientName("outbox-topology-soak").build();
    if (kind == Kind.SENTINEL) {
      Set<HostAndPort> sentinels = IntStream.of(26391, 26392, 26393).mapToObj(port -> new HostAndPort("127.0.0.1", port))
          .collect(Collectors.toSet());
      this.client = new JedisSentineled("outbox", config, pool, sentinels, DefaultJedisClientConfig.builder().build());
    } else {
      Set<HostAndPort> nodes = IntStream.rangeClosed(7111, 7116).mapToObj(port -> new HostAndPort("127.0.0.1", port))
          .collect(Collectors.toSet());
      // retries stop after 2 s, so a call during the failover fails instead of hanging (docs/backends.md)
      this.client = new JedisCluster(nodes, config, 5, Duration.ofSeconds(2), pool);
    }
    RedisOutboxStore.Builder builder = RedisOutboxStore.builder(client).keyPrefix(prefix)
        .shards(kind == Kind.CLUSTER ? 4 : 1);
    if (waitForReplica) {
      builder.waitForReplicas(1, WAIT_TIMEOUT);
    }
    this.store = builder.build();
    this.positions = WritePositions.redis(kind.ports);
  }

  @Override
  public String name() {
    return waitForReplica ? kind.title + ", waitForReplicas(1, 1 s)" : kind.title;
  }

  @Override
  public String replication() {
    return waitForReplica ? "asynchronous, each write WAITs for 1 replica" : "asynchronous";
  }

  @Override
  public boolean mayLoseAcknowledgedWrites() {
    return !waitForReplica;
  }

  @Override
  public OutboxClaimOutcomeStore appender() {
    return store;
  }

  @Override
  public OutboxClaimOutcomeStore storeOfDrain(int index) {
    return store;
  }

  @Override
  public List<OutboxClaimOutcomeStore> stores() {
    return List.of(store);
  }

  @Override
  public FaultTimes fault(int index) throws Exception {
    // every second Sentinel failover strikes a replica cut off its master, so an asynchronous one is surely
    // behind (a Cluster replica cannot be pointed elsewhere; its lag is what the load makes it)
    TopologyScript.Run failover = kind == Kind.SENTINEL
        ? script.run("topology", "failover", kind.fixture, index % 2 == 1 ? "cut" : "whole")
        : script.run("topology", "failover", kind.fixture, "{" + prefix + ":0}");
    long lagSince = positions.lastWrittenUpTo((int) failover.number("killing master"),
        failover.number("replica at offset"), failover.at("killing"));
    return new FaultTimes(failover.at("killing"), failover.at("promoted"), failover.number("replica behind"),
        lagSince);
  }

  @Override
  public String faultDescription() {
    return kind.fault;
  }

  @Override
  public void close() throws InterruptedException {
    positions.close();
    client.close();
  }
}
