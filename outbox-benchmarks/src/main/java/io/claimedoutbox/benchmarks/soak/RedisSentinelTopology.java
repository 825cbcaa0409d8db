package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisSentineled;

/**
 * The Redis adapter on the master of {@code .ci/topology start redis-replica} (one replica, three
 * sentinels), reached through the sentinels ({@link JedisSentineled} follows a failover); with or
 * without {@link RedisOutboxStore.Builder#waitForReplicas} for one replica.
 */
final class RedisSentinelTopology implements Topology {

  private static final Set<HostAndPort> SENTINELS = Set.of(new HostAndPort("127.0.0.1", 26391),
      new HostAndPort("127.0.0.1", 26392), new HostAndPort("127.0.0.1", 26393));
  private static final String PREFIX = "outbox-topology-soak";

  private final TopologyScript script;
  private final boolean waitForReplica;
  private final JedisSentineled client;
  private final RedisOutboxStore store;

  RedisSentinelTopology(TopologyScript script, boolean waitForReplica) throws Exception {
    this.script = script;
    this.waitForReplica = waitForReplica;
    script.run("topology", "start", "redis-replica");
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(16);
    this.client = new JedisSentineled("outbox", DefaultJedisClientConfig.builder().socketTimeoutMillis(2_000)
        .clientName("outbox-topology-soak").build(), pool, SENTINELS, DefaultJedisClientConfig.builder().build());
    Set<String> old = client.keys(PREFIX + "*");
    if (!old.isEmpty()) {
      client.del(old.toArray(String[]::new));
    }
    RedisOutboxStore.Builder builder = RedisOutboxStore.builder(client).keyPrefix(PREFIX);
    if (waitForReplica) {
      builder.waitForReplicas(1, Duration.ofSeconds(1));
    }
    this.store = builder.build();
  }

  @Override
  public String name() {
    return waitForReplica ? "Redis master + replica + 3 sentinels, waitForReplicas(1, 1 s)"
        : "Redis master + replica + 3 sentinels";
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
    TopologyScript.Run failover = script.run("topology", "failover", "redis-replica");
    return new FaultTimes(failover.at("killing"), failover.at("promoted"), failover.number("replica behind"));
  }

  @Override
  public String faultDescription() {
    return "kill -9 of the master, sentinels promote the replica, old master back as a replica";
  }

  @Override
  public void close() {
    client.close();
  }
}
