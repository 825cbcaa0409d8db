package io.claimedoutbox.drain;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.port.TransitionWriteHook;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Four drains in parallel over 10,000 entries: every entry finished, each write attributed once")
class ParallelDrainTest {

  private static final int DRAINS = 4;
  private static final int ENTRIES = 10_000;

  @Test
  @DisplayName("on the in-memory reference store")
  void inMemory() throws InterruptedException {
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    ParallelDrainRun.run("in-memory", new InMemoryOutboxStore(clock, TransitionWriteHook.NONE), clock, DRAINS, ENTRIES);
  }

  @Test
  @DisplayName("on PostgreSQL through the JPA adapter")
  void postgresql() throws Exception {
    String base = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
        .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
    try (Connection admin = DriverManager.getConnection(base); Statement statement = admin.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS outbox_drain CASCADE");
      statement.execute("CREATE SCHEMA outbox_drain");
    } catch (SQLException unreachable) {
      throw new IllegalStateException("PostgreSQL is required for this test but is not reachable at " + base
          + ". Start it (`bash .ci/run` does) or set OUTBOX_POSTGRESQL_URL=<jdbc url>.", unreachable);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(base + (base.contains("?") ? "&" : "?") + "currentSchema=outbox_drain");
    config.setMaximumPoolSize(24);
    try (HikariDataSource dataSource = new HikariDataSource(config)) {
      OutboxSchema.create(dataSource, OutboxDatabase.POSTGRESQL);
      EntityManagerFactory factory = JpaOutbox.entityManagerFactory(dataSource, Map.of());
      try {
        MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
        ParallelDrainRun.run("PostgreSQL", JpaOutboxStore.builder(factory).clock(clock).build(), clock, DRAINS, ENTRIES);
      } finally {
        factory.close();
      }
    }
  }
}
