package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.port.ListenState;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A drain whose store reaches PostgreSQL through PgBouncer in transaction pooling mode (started by
 * {@code .ci/pgbouncer}), where {@code LISTEN} is accepted and never delivers: the store finds that
 * out with its probe and polls only, and every entry is still delivered — those appended by another
 * store object (another JVM) by polling, those appended through the drain's own store at their
 * commit.
 */
@DisplayName("A drain behind PgBouncer in transaction mode polls only, says so, and delivers everything")
class DrainBehindPgBouncerTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  /** How often the test looks at what it waits for (an outcome, not a race: nothing is staged by it). */
  private static final long POLL_NANOS = Duration.ofMillis(10).toNanos();
  private static final String DIRECT = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
  /** Transaction pooling shares server sessions between transactions: no server-side prepared statements. */
  private static final String POOLED = Optional.ofNullable(System.getenv("OUTBOX_PGBOUNCER_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:6439/outbox_test?user=postgres&prepareThreshold=0");

  private final List<AutoCloseable> toClose = new ArrayList<>();

  @BeforeEach
  void emptyOutbox() throws Exception {
    try (Connection pooled = DriverManager.getConnection(POOLED)) {
      pooled.isValid(5);
    } catch (SQLException unreachable) {
      throw new IllegalStateException("PgBouncer (transaction pooling, in front of outbox_test) is required for this"
          + " test but is not reachable at " + POOLED + ". Start it with `bash .ci/pgbouncer start` (`bash .ci/run`"
          + " does) or set OUTBOX_PGBOUNCER_URL=<jdbc url>.", unreachable);
    }
    HikariDataSource direct = pool(DIRECT);
    try (Connection connection = direct.getConnection(); Statement statement = connection.createStatement();
        ResultSet table = statement.executeQuery("SELECT to_regclass('outbox_entry') IS NOT NULL")) {
      table.next();
      if (!table.getBoolean(1)) {
        OutboxSchema.create(direct, OutboxDatabase.POSTGRESQL);
      }
      statement.execute("TRUNCATE outbox_entry");
    }
  }

  private HikariDataSource pool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(6);
    HikariDataSource pool = new HikariDataSource(config);
    toClose.add(pool);
    return pool;
  }

  private JpaOutboxStore store(String url) {
    EntityManagerFactory factory = JpaOutbox.entityManagerFactory(pool(url), Map.of());
    toClose.add(factory::close);
    return JpaOutboxStore.builder(factory).build();
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  @Test
  void theProbeNeverComesBackAndEveryEntryIsStillDelivered() throws Exception {
    JpaOutboxStore behindPooler = store(POOLED);
    JpaOutboxStore elsewhere = store(DIRECT);
    Set<EntryId> handled = ConcurrentHashMap.newKeySet();
    OutboxDrain drain = OutboxDrain.builder(behindPooler, message -> handled.add(message.entry().id()))
        .workerId(WorkerId.of("behind-pgbouncer"))
        .idleBackoff(Duration.ofMillis(50), Duration.ofMillis(200))
        .build();
    toClose.add(() -> drain.stop(Duration.ofSeconds(10)));
    drain.start();

    long deadline = System.nanoTime() + WAIT.toNanos();
    while (behindPooler.listenState() != ListenState.POLLING_ONLY && System.nanoTime() < deadline) {
      LockSupport.parkNanos(POLL_NANOS);
    }
    assertThat(behindPooler.listenState()).as("the listening session behind the pooler, after its probe")
        .isEqualTo(ListenState.POLLING_ONLY);

    List<EntryId> appended = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      appended.add(elsewhere.append(OutboxMessage.of("t", new byte[] {(byte) i})).id());
      appended.add(behindPooler.append(OutboxMessage.of("t", new byte[] {(byte) i})).id());
    }
    while (!handled.containsAll(appended) && System.nanoTime() < deadline) {
      LockSupport.parkNanos(POLL_NANOS);
    }
    assertThat(handled).as("entries handled by the drain behind PgBouncer").containsAll(appended);
    assertThat(behindPooler.listenState()).as("it does not try again").isEqualTo(ListenState.POLLING_ONLY);
  }
}
