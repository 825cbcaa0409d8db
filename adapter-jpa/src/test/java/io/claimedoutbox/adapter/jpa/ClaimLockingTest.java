package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ClaimLockingTest {

  @ParameterizedTest(name = "{0} claims with {1}")
  @CsvSource({"POSTGRESQL, SKIP_LOCKED", "MARIADB, SKIP_LOCKED", "H2, OPTIMISTIC"})
  void autoPicksSkipLockedWhereTheDatabaseHasIt(TestDatabase database, ClaimLocking expected) {
    JpaOutboxStore store = JpaOutboxStore.builder(JpaFixtures.of(database).entityManagerFactory()).build();

    assertThat(store.claimLocking()).isEqualTo(expected);
  }
}
