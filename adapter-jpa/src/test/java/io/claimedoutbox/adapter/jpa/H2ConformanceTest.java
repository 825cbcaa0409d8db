package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite: JPA adapter on H2")
class H2ConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return JpaFixtures.of(TestDatabase.H2).fixture();
  }
}
