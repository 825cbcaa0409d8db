package io.claimedoutbox.benchmarks;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.sql.SQLException;

/** The JPA adapter on the benchmark's own namespace, through the adapter's test kit. */
final class JpaBackend implements ClaimedOutboxContender.Backend {

  private final BenchDatabase database;
  private final JpaTestKit kit;
  private final OutboxClaimOutcomeStore store;

  JpaBackend(BenchDatabase database) {
    this.database = database;
    this.kit = JpaTestKit.create(database.dataSource(), database.database(), database.name());
    this.store = kit.storeBuilder().build();
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
  public void close() {
    kit.close();
  }
}
