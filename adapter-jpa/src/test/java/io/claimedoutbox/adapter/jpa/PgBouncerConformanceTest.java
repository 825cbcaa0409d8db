package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

/**
 * The SQL store over a data source whose connections go through PgBouncer in transaction pooling, as
 * production deployments often run it: every rule holds when consecutive transactions of one
 * connection land on different server sessions.
 */
@DisplayName("Conformance suite: SQL adapter over a DataSource behind PgBouncer (transaction pooling)")
class PgBouncerConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return JpaFixtures.of(TestDatabase.PGBOUNCER).dataSourceFixture();
  }
}
