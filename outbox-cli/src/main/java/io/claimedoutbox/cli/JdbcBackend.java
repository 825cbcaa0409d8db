package io.claimedoutbox.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import java.sql.SQLException;
import java.time.Clock;

/**
 * Opens the JPA adapter on H2 (in memory), PostgreSQL or MariaDB, through the adapter's test kit.
 * On a server, the program works in a namespace of its own, new for every run
 * ({@link JdbcNamespace}: schema {@code outbox_cli_<random>} on PostgreSQL, database
 * {@code outbox_cli_<random>} on MariaDB), which it drops at the end, so it never touches anything
 * it did not create.
 */
final class JdbcBackend {

  private JdbcBackend() {}

  static BackendSession h2(Clock clock) {
    return open("H2 (embedded, in memory)", "jdbc:h2:mem:", clock);
  }

  static BackendSession postgresql(String url, Clock clock) {
    return open("PostgreSQL", url, clock);
  }

  static BackendSession mariadb(String url, Clock clock) {
    return open("MariaDB", url, clock);
  }

  private static BackendSession open(String name, String url, Clock clock) {
    JdbcNamespace namespace = createNamespace(name, url);
    HikariDataSource dataSource;
    try {
      dataSource = new HikariDataSource(poolInto(namespace));
    } catch (RuntimeException unreachable) {
      namespace.close();
      throw UnreachableBackendException.at(name, url, unreachable);
    }
    String server = name + " " + JpaTestKit.serverVersion(dataSource);
    JpaTestKit kit = JpaTestKit.create(dataSource, namespace.database(), server + " (JPA adapter)");
    JpaOutboxStore store = kit.storeBuilder().clock(clock).build();
    return new BackendSession(server + " (JPA adapter, " + store.claimLocking() + " claims)", store, kit.fixture(),
        kit::rawCompareAndSet, () -> {
          kit.close();
          dataSource.close();
          namespace.close();
        });
  }

  private static JdbcNamespace createNamespace(String name, String url) {
    try {
      return JdbcNamespace.create(url, Backends.NAMESPACE);
    } catch (IllegalArgumentException malformed) {
      throw new UsageException(malformed.getMessage());
    } catch (SQLException failure) {
      throw JdbcFailures.opening(name, url, failure);
    }
  }

  private static HikariConfig poolInto(JdbcNamespace namespace) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(namespace.url());
    config.setMaximumPoolSize(32);
    config.setPoolName("outbox-cli");
    config.setConnectionTimeout(10_000);
    if (namespace.database() == OutboxDatabase.MARIADB) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    return config;
  }
}
