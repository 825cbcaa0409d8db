package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Borrowing costs nothing extra until a connection broke, and only for a while after. */
@DisplayName("JPA adapter: pool recovery checks connections only after a broken one")
class PoolRecoveryTest {

  @Test
  @DisplayName("a fresh pool is not suspect; a broken connection makes it suspect")
  void suspectOnlyAfterABrokenConnection() throws Exception {
    try (HikariDataSource pool = new HikariDataSource()) {
      pool.setJdbcUrl(TestDatabase.POSTGRESQL.url());
      PoolRecovery recovery = PoolRecovery.of(pool);
      assertThat(recovery.isSuspect()).as("a new pool, whatever System.nanoTime reads").isFalse();
      Connection connection = pool.getConnection();
      recovery.brokenConnection(connection);
      connection.close();
      assertThat(recovery.isSuspect()).isTrue();
      try (Connection fresh = recovery.borrow(ConnectionSource.of(pool))) {
        assertThat(fresh.isValid(1)).isTrue();
      }
    }
  }
}
