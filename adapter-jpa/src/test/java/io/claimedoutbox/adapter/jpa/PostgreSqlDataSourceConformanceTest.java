package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

/** The SQL store built from a plain {@code DataSource}, with no JPA provider on its path. */
@DisplayName("Conformance suite: SQL adapter over a DataSource on PostgreSQL")
class PostgreSqlDataSourceConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return JpaFixtures.of(TestDatabase.POSTGRESQL).dataSourceFixture();
  }
}
