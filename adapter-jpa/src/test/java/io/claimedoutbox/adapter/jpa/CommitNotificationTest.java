package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.CommitNotifications;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JPA adapter: drains are told of commits, in this JVM and over LISTEN/NOTIFY (PostgreSQL)")
class CommitNotificationTest {

  private static final Duration WAIT = Duration.ofSeconds(30);

  private final JpaTestKit fixture = JpaFixtures.of(TestDatabase.POSTGRESQL);
  private final List<AutoCloseable> toClose = new ArrayList<>();
  private JpaOutboxStore store;

  @BeforeEach
  void cleanStore() {
    fixture.fixture().clean();
    store = JpaOutboxStore.builder(fixture.entityManagerFactory()).build();
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
  @DisplayName("appendWithin tells the drains when its transaction commits, and nothing when it rolls back")
  void appendWithinNotifiesOnCommitOnly() {
    Heard heard = subscribe(JpaOutboxStore.builder(fixture.entityManagerFactory()).listenAcrossProcesses(false).build());
    JpaOutboxStore local = JpaOutboxStore.builder(fixture.entityManagerFactory()).listenAcrossProcesses(false).build();
    Heard own = subscribe(local);

    EntityManager em = fixture.entityManagerFactory().createEntityManager();
    em.getTransaction().begin();
    local.appendWithin(em, List.of(message()));
    assertThat(own.count()).as("told before the commit").isZero();
    em.getTransaction().rollback();
    assertThat(own.count()).as("told after a rollback").isZero();

    em.getTransaction().begin();
    local.appendWithin(em, List.of(message(), message()));
    em.getTransaction().commit();
    em.close();
    assertThat(own.count()).as("told after the commit").isEqualTo(1);
    assertThat(heard.count()).as("another store object, not listening across processes").isZero();
  }

  @Test
  @DisplayName("appendAll tells the drains after its commit; appendOn when the caller says it committed")
  void appendAllAndAppendOn() throws Exception {
    JpaOutboxStore store = JpaOutboxStore.builder(fixture.entityManagerFactory()).listenAcrossProcesses(false).build();
    Heard own = subscribe(store);
    store.appendAll(List.of(message()));
    assertThat(own.count()).isEqualTo(1);
    store.appendAll(List.of());
    assertThat(own.count()).as("an empty append commits nothing").isEqualTo(1);

    try (Connection connection = fixture.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      store.appendOn(connection, List.of(message()));
      connection.commit();
    }
    assertThat(own.count()).as("appendOn cannot see the commit").isEqualTo(1);
    store.entriesCommitted();
    assertThat(own.count()).isEqualTo(2);
  }

  @Test
  @DisplayName("another store object (another JVM) hears a commit over NOTIFY, and a rolled-back append is never heard")
  void anotherProcessHearsTheCommit() throws Exception {
    JpaOutboxStore elsewhere = JpaOutboxStore.builder(fixture.entityManagerFactory()).build();
    Heard heard = subscribe(elsewhere);
    assertThat(heard.awaitAtLeast(1)).as("woken once when the session starts listening").isTrue();
    store.appendAll(List.of(message()));
    assertThat(heard.awaitAtLeast(2)).as("heard the append over NOTIFY").isTrue();

    EntityManager em = fixture.entityManagerFactory().createEntityManager();
    em.getTransaction().begin();
    store.appendWithin(em, List.of(message()));
    em.getTransaction().rollback();
    int afterRollback = heard.count();
    store.appendAll(List.of(message()));
    assertThat(heard.awaitAtLeast(afterRollback + 1)).isTrue();
    em.close();
  }

}
