package io.claimedoutbox.adapter.mongodb;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite: MongoDB adapter")
class MongoConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return MongoFixtures.shared().kit.fixture();
  }
}
