package io.claimedoutbox.adapter.jpa;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * One test kit per database for the whole test run, over a pool to the database the tests find
 * ({@link TestDatabase}): building an {@code EntityManagerFactory} is the expensive part, cleaning
 * the table between tests is cheap.
 */
final class JpaFixtures {

  private static final Map<TestDatabase, JpaTestKit> OPEN = new EnumMap<>(TestDatabase.class);

  private JpaFixtures() {}

  static synchronized JpaTestKit of(TestDatabase database) {
    return OPEN.computeIfAbsent(database, JpaFixtures::open);
  }

  private static JpaTestKit open(TestDatabase database) {
    String url = database.url();
    HikariDataSource pool = pool(url, database);
    try (Connection probe = pool.getConnection()) {
      probe.isValid(2);
    } catch (SQLException | RuntimeException unreachable) {
      pool.close();
      throw new IllegalStateException(database.howToProvide(url), unreachable);
    }
    System.out.println("Conformance backend: " + database.displayName + " (JPA adapter) at " + url);
    return JpaTestKit.create(pool, database.schema, database.displayName + " (JPA adapter)");
  }

  private static HikariDataSource pool(String url, TestDatabase database) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(20);
    config.setPoolName("outbox-" + database.name().toLowerCase(Locale.ROOT));
    config.setConnectionTimeout(10_000);
    if (database.schema == OutboxDatabase.MARIADB) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    return new HikariDataSource(config);
  }
}
