package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.conformance.FaultProxy;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.CommitNotifications;
import jakarta.persistence.EntityManagerFactory;
import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Drains woken by commits of other store objects (as of other JVMs) over PostgreSQL's
 * LISTEN/NOTIFY, through cuts of the listening session: polling stays the safety net.
 */
@DisplayName("Drains on PostgreSQL: woken over NOTIFY, through a cut session, never delivering twice")
class WakeUpAcrossProcessesTest {

  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String BASE = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
  private static final String URL = BASE + (BASE.contains("?") ? "&" : "?") + "currentSchema=outbox_wakeup";

  private final List<AutoCloseable> toClose = new ArrayList<>();
  private JpaOutboxStore store;

  @BeforeEach
  void freshSchema() throws Exception {
    try (Connection admin = DriverManager.getConnection(BASE); Statement statement = admin.createStatement()) {
      statement.execute("DROP SCHEMA IF EXISTS outbox_wakeup CASCADE");
      statement.execute("CREATE SCHEMA outbox_wakeup");
    } catch (SQLException unreachable) {
      throw new IllegalStateException("PostgreSQL is required for this test but is not reachable at " + BASE
          + ". Start it (`bash .ci/run` does) or set OUTBOX_POSTGRESQL_URL=<jdbc url>.", unreachable);
    }
    store = JpaOutboxStore.builder(factory(URL, true)).build();
  }

  private EntityManagerFactory factory(String url, boolean createSchema) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(6);
    HikariDataSource pool = new HikariDataSource(config);
    toClose.add(pool);
    if (createSchema) {
      OutboxSchema.create(pool, OutboxDatabase.POSTGRESQL);
    }
    EntityManagerFactory factory = JpaOutbox.entityManagerFactory(pool, Map.of());
    toClose.add(factory::close);
    return factory;
  }

  @AfterEach
  void closeAll() throws Exception {
    for (int i = toClose.size() - 1; i >= 0; i--) {
      toClose.get(i).close();
    }
  }

  private static OutboxMessage message() {
    return OutboxMessage.of("t", new byte[] {7});
  }

  /** Counts the notifications a store object's subscribers get, and lets a test wait for a count. */
  private static final class Heard {
    private final AtomicInteger count = new AtomicInteger();

    CommitNotifications.Listener listener() {
      return appended -> {
        synchronized (this) {
          count.incrementAndGet();
          notifyAll();
        }
      };
    }

    int count() {
      return count.get();
    }

    synchronized boolean awaitAtLeast(int expected) throws InterruptedException {
      long deadline = System.nanoTime() + WAIT.toNanos();
      while (count.get() < expected && System.nanoTime() < deadline) {
        wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
      return count.get() >= expected;
    }
  }

  private Heard subscribe(JpaOutboxStore to) {
    Heard heard = new Heard();
    CommitNotifications.Subscription subscription = to.commitNotifications().subscribe(heard.listener());
    toClose.add(subscription);
    return heard;
  }

  @Test
  @DisplayName("a cut listening session is opened again, and an entry appended meanwhile is delivered once")
  void aCutListeningSessionComesBack() throws Exception {
    URI server = URI.create(BASE.substring("jdbc:".length()));
    FaultProxy proxy = FaultProxy.start(server.getHost(), server.getPort() < 0 ? 5432 : server.getPort());
    toClose.add(proxy);
    EntityManagerFactory factory = factory(URL.replace(server.getHost() + ":" + server.getPort(),
        proxy.host() + ":" + proxy.port()), false);
    JpaOutboxStore proxied = JpaOutboxStore.builder(factory).build();
    Deliveries deliveries = new Deliveries();
    OutboxDrain drain = OutboxDrain.builder(proxied, deliveries.handler()).workerId(WorkerId.of("behind-proxy"))
        .build();
    toClose.add(drain);
    Heard heard = subscribe(proxied);
    drain.start();
    assertThat(heard.awaitAtLeast(1)).as("woken once when the session starts listening").isTrue();
    store.appendAll(List.of(message()));
    assertThat(heard.awaitAtLeast(2)).as("heard before the cut").isTrue();

    proxy.cutAllConnections();
    OutboxEntry meanwhile = store.append(message());
    assertThat(deliveries.await(meanwhile)).as("the entry appended while the session was cut is delivered").isTrue();
    assertThat(heard.awaitAtLeast(3)).as("woken again when the session listens again after the cut").isTrue();

    int beforeNext = heard.count();
    OutboxEntry next = store.append(message());
    assertThat(heard.awaitAtLeast(beforeNext + 1)).as("the reopened session hears the next commit").isTrue();
    assertThat(deliveries.await(next)).isTrue();
    drain.stop(WAIT);
    assertThat(deliveries.timesDelivered(meanwhile)).isEqualTo(1);
    assertThat(deliveries.timesDelivered(next)).isEqualTo(1);
  }

  @Test
  @DisplayName("drains woken by commits in two store objects deliver every entry exactly once")
  void wakeUpsNeverDeliverTwice() throws Exception {
    JpaOutboxStore other = JpaOutboxStore.builder(factory(URL, false)).build();
    Deliveries deliveries = new Deliveries();
    OutboxDrain first = OutboxDrain.builder(store, deliveries.handler()).workerId(WorkerId.of("first")).build();
    OutboxDrain second = OutboxDrain.builder(other, deliveries.handler()).workerId(WorkerId.of("second")).build();
    toClose.add(first);
    toClose.add(second);
    first.start();
    second.start();
    ExecutorService producers = Executors.newFixedThreadPool(4);
    List<OutboxEntry> appended = Collections.synchronizedList(new ArrayList<>());
    for (int producer = 0; producer < 4; producer++) {
      JpaOutboxStore through = producer % 2 == 0 ? store : other;
      producers.execute(() -> {
        for (int i = 0; i < 100; i++) {
          appended.addAll(through.appendAll(List.of(message())));
        }
      });
    }
    producers.shutdown();
    assertThat(producers.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
    for (OutboxEntry entry : appended) {
      assertThat(deliveries.await(entry)).as("delivered: " + entry.id()).isTrue();
    }
    first.stop(WAIT);
    second.stop(WAIT);
    assertThat(appended).hasSize(400);
    for (OutboxEntry entry : appended) {
      assertThat(deliveries.timesDelivered(entry)).as("deliveries of " + entry.id()).isEqualTo(1);
      assertThat(store.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    }
  }

  /** What the drains' handlers received, entry by entry. */
  private static final class Deliveries {
    private final Map<String, AtomicInteger> times = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> arrived = new ConcurrentHashMap<>();

    OutboxMessageHandler handler() {
      return message -> {
        String id = message.entry().id().value();
        times.computeIfAbsent(id, key -> new AtomicInteger()).incrementAndGet();
        latch(id).countDown();
      };
    }

    private CountDownLatch latch(String id) {
      return arrived.computeIfAbsent(id, key -> new CountDownLatch(1));
    }

    boolean await(OutboxEntry entry) throws InterruptedException {
      return latch(entry.id().value()).await(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    int timesDelivered(OutboxEntry entry) {
      AtomicInteger count = times.get(entry.id().value());
      return count == null ? 0 : count.get();
    }
  }
}
