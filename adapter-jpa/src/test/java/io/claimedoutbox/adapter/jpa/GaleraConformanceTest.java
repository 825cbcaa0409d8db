package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

/**
 * The SQL store on one node of a three-node MariaDB Galera cluster: every write is certified by the
 * group at commit, and the rules hold as on a single server.
 */
@DisplayName("Conformance suite: SQL adapter over a DataSource on a MariaDB Galera node")
class GaleraConformanceTest extends OutboxStoreConformanceSuite {

  @Override
  protected OutboxStoreFixture fixture() {
    return JpaFixtures.of(TestDatabase.GALERA).dataSourceFixture();
  }
}
