package io.claimedoutbox.adapter.jpa;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.conformance.ClosingStore;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The conformance fixture for the JPA adapter on one real database: creates the table from the
 * shipped DDL, validates the mapping against it, and reads rows with plain JDBC.
 */
final class JpaStoreFixture implements OutboxStoreFixture, AutoCloseable {

  private final TestDatabase database;
  private final HikariDataSource dataSource;
  private final EntityManagerFactory factory;

  JpaStoreFixture(TestDatabase database) {
    this.database = database;
    String url = database.url();
    this.dataSource = pool(url, database);
    try (Connection probe = dataSource.getConnection()) {
      probe.isValid(2);
    } catch (SQLException | RuntimeException unreachable) {
      dataSource.close();
      throw new IllegalStateException(database.howToProvide(url), unreachable);
    }
    recreateSchema();
    this.factory = JpaOutbox.entityManagerFactory(dataSource, Map.of("hibernate.hbm2ddl.auto", "validate"));
    System.out.println("Conformance backend: " + backendName() + " at " + url);
  }

  private static HikariDataSource pool(String url, TestDatabase database) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(20);
    config.setPoolName("outbox-" + database.name().toLowerCase(java.util.Locale.ROOT));
    config.setConnectionTimeout(10_000);
    if (database == TestDatabase.MARIADB) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    return new HikariDataSource(config);
  }

  private void recreateSchema() {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS outbox_entry");
    } catch (SQLException failure) {
      throw new IllegalStateException("cannot drop the old outbox table on " + database.displayName, failure);
    }
    OutboxSchema.create(dataSource, database.schema);
  }

  DataSource dataSource() {
    return dataSource;
  }

  EntityManagerFactory factory() {
    return factory;
  }

  @Override
  public String backendName() {
    return database.displayName + " (JPA adapter)";
  }

  @Override
  public Set<FixtureCapability> capabilities() {
    return database == TestDatabase.H2
        ? EnumSet.noneOf(FixtureCapability.class)
        : EnumSet.of(FixtureCapability.ROW_LOCKS, FixtureCapability.UNREACHABLE_BACKEND);
  }

  @Override
  public void clean() {
    update("DELETE FROM outbox_entry");
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return JpaOutboxStore.builder(factory).clock(context.clock()).build();
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    String sql = "SELECT id, status, claim_owner, claim_generation, revision, write_stamp"
        + " FROM outbox_entry WHERE id = ?";
    try (Connection connection = dataSource.getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      select.setString(1, id.value());
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        return Optional.of(new RawEntryState(row.getString(1), row.getString(2), row.getString(3),
            row.getLong(4), row.getLong(5), row.getString(6)));
      }
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public long countRaw() {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM outbox_entry")) {
      count.next();
      return count.getLong(1);
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public void corrupt(EntryId id) {
    update("UPDATE outbox_entry SET status = 'SHIPPED' WHERE id = '" + id.value() + "'");
  }

  @Override
  public void holdRowLock(EntryId id, Runnable whileLocked) {
    try (Connection connection = dataSource.getConnection()) {
      connection.setAutoCommit(false);
      try (PreparedStatement lock = connection.prepareStatement(
          "SELECT id FROM outbox_entry WHERE id = ? FOR UPDATE")) {
        lock.setString(1, id.value());
        lock.executeQuery().close();
        whileLocked.run();
      } finally {
        connection.rollback();
        connection.setAutoCommit(true);
      }
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(database.unreachableUrl);
    config.setConnectionTimeout(250);
    config.setInitializationFailTimeout(-1);
    config.setMaximumPoolSize(1);
    HikariDataSource unreachable = new HikariDataSource(config);
    EntityManagerFactory deadFactory = JpaOutbox.entityManagerFactory(unreachable, Map.of(
        "hibernate.dialect", database.dialect,
        "hibernate.boot.allow_jdbc_metadata_access", "false"));
    JpaOutboxStore store = JpaOutboxStore.builder(deadFactory)
        .clock(context.clock())
        .build();
    return Optional.of(new ClosingStore(store, () -> {
      deadFactory.close();
      unreachable.close();
    }));
  }

  private void update(String sql) {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.executeUpdate(sql);
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public void close() {
    factory.close();
    dataSource.close();
  }
}
