package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxStoreException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The SQL store built from a plain {@code DataSource}: the database is read from a connection when it
 * is built, or named by the caller so it can be built while the database is down.
 */
@DisplayName("SQL adapter over a DataSource: which database it is, and building without one")
class DataSourceStoreTest {

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
  @DisplayName("the database is read from a connection's metadata: SKIP LOCKED claims where it exists")
  void databaseIsReadFromTheConnection(TestDatabase database) {
    JdbcOutboxStore store = JpaFixtures.of(database).jdbcStoreBuilder().build();

    assertThat(store.claimLocking()).isEqualTo(database == TestDatabase.H2
        ? ClaimLocking.OPTIMISTIC : ClaimLocking.SKIP_LOCKED);
    assertThat(store.find(EntryId.of("no-such-entry"))).isEmpty();
  }

  @Test
  @DisplayName("a database that is down: building fails saying how to build anyway; named, it builds and its calls fail")
  void databaseThatIsDown() {
    PGSimpleDataSource down = new PGSimpleDataSource();
    down.setURL("jdbc:postgresql://127.0.0.1:1/outbox_test?user=postgres&connectTimeout=2");

    assertThatThrownBy(() -> JdbcOutboxStore.builder(down).build())
        .isInstanceOf(OutboxStoreException.class)
        .hasMessageContaining("cannot tell which database")
        .hasMessageContaining("database(");
    JdbcOutboxStore named = JdbcOutboxStore.builder(down).database(OutboxDatabase.POSTGRESQL).build();
    assertThat(named.claimLocking()).isEqualTo(ClaimLocking.SKIP_LOCKED);
    assertThatThrownBy(() -> named.find(EntryId.of("any"))).isInstanceOf(OutboxStoreException.class);
  }

  @Test
  @DisplayName("a null data source or database is refused, naming the argument")
  void nullArgumentsAreNamed() {
    assertThatThrownBy(() -> JdbcOutboxStore.builder(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("dataSource");
    PGSimpleDataSource any = new PGSimpleDataSource();
    assertThatThrownBy(() -> JdbcOutboxStore.builder(any).database(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("database");
  }
}
