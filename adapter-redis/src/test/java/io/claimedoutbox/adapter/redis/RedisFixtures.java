package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import java.util.EnumMap;
import java.util.Map;

/** One test kit per topology for the whole test run, over the server the tests find ({@link RedisTopology}). */
final class RedisFixtures {

  static final String PREFIX = "outbox-conformance";
  private static final Map<RedisTopology, RedisTestKit> OPEN = new EnumMap<>(RedisTopology.class);

  private RedisFixtures() {}

  static synchronized RedisTestKit of(RedisTopology topology) {
    return OPEN.computeIfAbsent(topology, RedisFixtures::open);
  }

  private static RedisTestKit open(RedisTopology topology) {
    System.out.println("Conformance backend: Redis adapter on " + topology.displayName + " at "
        + topology.nodes() + " with " + topology.shards + " shard(s)");
    return RedisTestKit.create(topology.connect(), topology.nodeList(), PREFIX, topology.shards,
        "Redis adapter on " + topology.displayName);
  }
}
