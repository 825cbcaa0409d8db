package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite: JPA adapter on PostgreSQL")
class PostgreSqlConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return JpaFixtures.of(TestDatabase.POSTGRESQL).fixture();
  }
}
