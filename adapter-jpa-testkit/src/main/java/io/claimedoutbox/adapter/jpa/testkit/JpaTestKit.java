package io.claimedoutbox.adapter.jpa.testkit;

import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawCompareAndSet;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The JPA adapter's test kit: everything a test, a benchmark or the {@code outbox} program needs to
 * run the adapter over a database it is given. Built from a configured {@link DataSource} whose
 * connections already point into the namespace to use (a schema or database of its own, see
 * {@link JdbcNamespace}); the kit drops and recreates the {@code outbox_entry} table there from the
 * shipped DDL, so never point it at a namespace that holds data you want.
 *
 * <p>The caller owns the data source and closes it after the kit.
 */
public final class JpaTestKit implements AutoCloseable {

  private final DataSource dataSource;
  private final OutboxDatabase database;
  private final EntityManagerFactory factory;
  private final String backendName;
  private final OutboxStoreFixture fixture;
  private final OutboxStoreFixture dataSourceFixture;

  private JpaTestKit(DataSource dataSource, OutboxDatabase database, String backendName) {
    this.dataSource = dataSource;
    this.database = database;
    this.backendName = backendName;
    recreateTable();
    this.factory = JpaOutbox.entityManagerFactory(dataSource, Map.of("hibernate.hbm2ddl.auto", "validate"));
    this.fixture = new JdbcStoreFixture(this, backendName, JdbcStoreFixture.StoreRoute.ENTITY_MANAGER_FACTORY);
    this.dataSourceFixture = new JdbcStoreFixture(this, backendName + ", built over the DataSource",
        JdbcStoreFixture.StoreRoute.DATA_SOURCE);
  }

  /**
   * Recreates the outbox table through {@code dataSource} and opens the adapter's persistence unit
   * over it, validated against the table.
   *
   * @param dataSource connections into the namespace the kit may own
   * @param database which database it is
   * @param backendName how reports name the backend, for example {@code PostgreSQL 16 (JPA adapter)}
   * @return the kit
   */
  public static JpaTestKit create(DataSource dataSource, OutboxDatabase database, String backendName) {
    return new JpaTestKit(dataSource, database, backendName);
  }

  private void recreateTable() {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS outbox_entry");
    } catch (SQLException failure) {
      throw new IllegalStateException("cannot drop the old outbox table on " + backendName, failure);
    }
    OutboxSchema.create(dataSource, database);
  }

  /** @return the data source the kit was built from */
  public DataSource dataSource() {
    return dataSource;
  }

  /** @return which database the kit runs on */
  public OutboxDatabase database() {
    return database;
  }

  /** @return the adapter's persistence unit over the kit's table; closed with the kit */
  public EntityManagerFactory entityManagerFactory() {
    return factory;
  }

  /** @return a builder for a store over the kit's table, to set a clock or claim locking on */
  public JdbcOutboxStore.Builder<JpaOutboxStore> storeBuilder() {
    return JpaOutboxStore.builder(factory);
  }

  /** @return a builder for the SQL store over the kit's data source alone, no JPA provider involved */
  public JdbcOutboxStore.Builder<JdbcOutboxStore> jdbcStoreBuilder() {
    return JdbcOutboxStore.builder(dataSource);
  }

  /**
   * The conformance fixture over the kit's table: rows read, damaged and locked with plain JDBC.
   * On PostgreSQL and MariaDB it has row locks and an unreachable twin, so every rule runs.
   *
   * @return the fixture, the same instance on every call
   */
  public OutboxStoreFixture fixture() {
    return fixture;
  }

  /**
   * {@link #fixture()} with its stores built by {@link JdbcOutboxStore#builder(DataSource)}: the same
   * SQL, reached without a JPA provider.
   *
   * @return the fixture, the same instance on every call
   */
  public OutboxStoreFixture dataSourceFixture() {
    return dataSourceFixture;
  }

  /**
   * The database's own compare-and-set — one {@code UPDATE … WHERE id = ? AND v = ?} per call in
   * a table {@code raw_cas} next to the outbox table — the floor the adapter's calls are measured
   * against.
   *
   * @param keys how many rows to prepare
   * @return the compare-and-set; closing it drops its table
   */
  public RawCompareAndSet rawCompareAndSet(int keys) {
    return JdbcRawCompareAndSet.prepare(dataSource, keys);
  }

  /**
   * @param dataSource connections to a database server
   * @return the server's version, for example {@code 16.4}; empty when it cannot be read
   */
  public static String serverVersion(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return connection.getMetaData().getDatabaseProductVersion().split(" ")[0].split("-")[0];
    } catch (SQLException failure) {
      return "";
    }
  }

  /** Closes the persistence unit; the data source stays the caller's. */
  @Override
  public void close() {
    factory.close();
  }
}
