package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.benchmarks.BenchDatabase;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Our drain with its defaults over the JPA adapter, producers on plain JDBC as the peers' are: each
 * producer transaction inserts the business row and calls {@code beginAppendOn} on the same
 * connection, commits, and reports the commit ({@code PendingAppend.committed}), as the Spring
 * starter does from its transaction synchronization. (An {@code appendWithin} in a JPA transaction tells the store from Hibernate's
 * completion callback instead; the other-JVM producers take that path.)
 */
final class OursOnSql implements LatencySystem {

  private final BenchDatabase database;
  private final JpaTestKit kit;
  private final JpaOutboxStore store;
  private OutboxDrain drain;

  OursOnSql(BenchDatabase database) {
    this.database = database;
    this.kit = JpaTestKit.create(database.dataSource(), database.database(), database.name());
    this.store = kit.storeBuilder().build();
  }

  @Override
  public java.time.Duration pollInterval() {
    return java.time.Duration.ofSeconds(5);
  }

  @Override
  public String name() {
    return "ours (defaults)";
  }

  JpaOutboxStore store() {
    return store;
  }

  @Override
  public void start(Recording recording) throws Exception {
    database.execute(database.isPostgreSql() ? "TRUNCATE outbox_entry" : "DELETE FROM outbox_entry");
    drain = OutboxDrain.builder(store, message -> recording.handlerStarted(
            BusinessTable.sequenceOf(message.entry().message().payload())))
        .workerId(WorkerId.of("latency-" + database.name()))
        .build();
    drain.start();
  }

  @Override
  public void produce(long sequence) throws SQLException {
    BusinessTable.commitWithEntry(database.dataSource(), store, sequence);
  }

  @Override
  public void stop() {
    if (drain != null) {
      drain.stop(Duration.ofSeconds(30));
      drain = null;
    }
  }
}
