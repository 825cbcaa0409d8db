package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;

import io.claimedoutbox.port.OutboxStoreException;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.mariadb.jdbc.MariaDbDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A persistence unit that cannot start fails with the project's exception and the driver's own
 * reason, not with Hibernate's "Unable to determine Dialect".
 */
@DisplayName("JPA adapter: a database that cannot be reached is reported as such")
class StartupErrorsTest {

  @Test
  @DisplayName("a wrong port: OutboxStoreException saying the connection was refused")
  void wrongPort() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL("jdbc:postgresql://127.0.0.1:1/outbox_test?user=postgres&connectTimeout=2");

    assertThatThrownBy(() -> JpaOutbox.entityManagerFactory(dataSource, Map.of()))
        .isInstanceOf(OutboxStoreException.class)
        .hasMessageContaining("cannot connect to the outbox's database")
        .hasMessageContaining("refused");
  }

  @Test
  @DisplayName("a missing database: OutboxStoreException naming the database")
  void missingDatabase() {
    PGSimpleDataSource dataSource = new PGSimpleDataSource();
    dataSource.setURL(TestDatabase.POSTGRESQL.url().replace("/outbox_test", "/no_such_outbox_database"));

    assertThatThrownBy(() -> JpaOutbox.entityManagerFactory(dataSource, Map.of()))
        .isInstanceOf(OutboxStoreException.class)
        .hasMessageContaining("no_such_outbox_database");
  }

  @Test
  @DisplayName("a wrong MariaDB password: OutboxStoreException saying access was denied")
  void wrongPassword() throws Exception {
    MariaDbDataSource dataSource = new MariaDbDataSource(
        TestDatabase.MARIADB.url().replaceAll("user=[^&]*", "user=outbox_nobody") + "&password=wrong");

    assertThatThrownBy(() -> JpaOutbox.entityManagerFactory(dataSource, Map.of()))
        .isInstanceOf(OutboxStoreException.class)
        .hasMessageContaining("Access denied");
  }

  @Test
  @DisplayName("no failure repeats a password of the data source: not in a message, a cause or the stack trace")
  void failuresNeverRepeatThePassword() throws Exception {
    MariaDbDataSource wrongUser = new MariaDbDataSource(
        TestDatabase.MARIADB.url().replaceAll("user=[^&]*", "user=outbox_nobody") + "&password=SECRET123");
    PGSimpleDataSource refused = new PGSimpleDataSource();
    refused.setURL("jdbc:postgresql://127.0.0.1:1/outbox_test?user=postgres&password=SECRET123&connectTimeout=2");
    PGSimpleDataSource missing = new PGSimpleDataSource();
    missing.setURL(TestDatabase.POSTGRESQL.url().replace("/outbox_test", "/no_such_outbox_database") + "&password=SECRET123");

    for (javax.sql.DataSource dataSource : java.util.List.of(wrongUser, refused, missing)) {
      Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
          () -> JpaOutbox.entityManagerFactory(dataSource, Map.of()));
      StringWriter printed = new StringWriter();
      failure.printStackTrace(new PrintWriter(printed));
      assertThat(printed.toString()).isNotEmpty().doesNotContain("SECRET123");
    }
  }
}
