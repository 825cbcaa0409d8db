package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite: Redis adapter on standalone Redis")
class RedisStandaloneConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return RedisFixtures.of(RedisTopology.STANDALONE).fixture();
  }
}
