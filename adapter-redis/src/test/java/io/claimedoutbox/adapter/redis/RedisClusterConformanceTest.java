package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite: Redis adapter on Redis Cluster (4 shards, 3 masters)")
class RedisClusterConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return RedisFixtures.of(RedisTopology.CLUSTER).fixture();
  }
}
