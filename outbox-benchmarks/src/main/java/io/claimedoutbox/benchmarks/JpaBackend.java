package io.claimedoutbox.benchmarks;

import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/** The JPA adapter on the benchmark's own schema of a PostgreSQL or MariaDB database. */
final class JpaBackend implements ClaimedOutboxContender.Backend {

  private final BenchDatabase database;
  private final EntityManagerFactory factory;
  private final JpaOutboxStore store;

  JpaBackend(BenchDatabase database) throws SQLException {
    this.database = database;
    try (Connection connection = database.dataSource().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS outbox_entry");
    }
    OutboxSchema.create(database.dataSource(),
        database.isPostgreSql() ? OutboxDatabase.POSTGRESQL : OutboxDatabase.MARIADB);
    this.factory = JpaOutbox.entityManagerFactory(database.dataSource(), Map.of());
    this.store = JpaOutboxStore.builder(factory).build();
  }

  @Override
  public String name() {
    return database.name();
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public void reset() throws SQLException {
    database.execute(database.isPostgreSql() ? "TRUNCATE outbox_entry" : "DELETE FROM outbox_entry");
    if (database.isPostgreSql()) {
      database.execute("VACUUM ANALYZE outbox_entry");
    }
  }

  @Override
  public long undone() throws SQLException {
    return database.count("SELECT COUNT(*) FROM outbox_entry WHERE status <> 'DELIVERED'");
  }

  @Override
  public void close() throws SQLException {
    factory.close();
    database.execute("DROP TABLE IF EXISTS outbox_entry");
  }
}
