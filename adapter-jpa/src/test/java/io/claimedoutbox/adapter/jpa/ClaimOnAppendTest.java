package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import jakarta.persistence.EntityManager;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.DisplayName;

/**
 * Appends whose outcome the store sees offer their entries to the drains of the JVM; what a drain
 * takes is written claimed, reported at the commit, and given back at a rollback. A plain
 * {@code appendOn}, whose commit the store may never hear of, offers nothing.
 */
@DisplayName("JPA adapter: entries claimed on append, reported at the commit and given back at a rollback")
class ClaimOnAppendTest {

  private static final WorkerId DRAIN = WorkerId.of("drain-on-append");

  /** Takes every entry offered and keeps what it is told. */
  private static final class TakingListener implements CommitNotifications.Listener {
    final List<EntryId> offered = new ArrayList<>();
    final List<OutboxEntry> committedClaimed = new ArrayList<>();
    final List<EntryId> notCommitted = new ArrayList<>();

    @Override
    public synchronized Optional<CommitNotifications.ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
      offered.add(entry.id());
      return Optional.of(new CommitNotifications.ClaimOnAppend(DRAIN, Duration.ofSeconds(30)));
    }

    @Override
    public synchronized void entriesCommitted(List<OutboxEntry> appended) {
      appended.stream().filter(entry -> entry.currentClaim().isPresent()).forEach(committedClaimed::add);
    }

    @Override
    public synchronized void notCommitted(OutboxEntry written) {
      notCommitted.add(written.id());
    }
  }

  private static OutboxMessage message() {
    return OutboxMessage.of("t", new byte[] {7});
  }

  private static JpaOutboxStore cleanStore(TestDatabase database) {
    JpaTestKit fixture = JpaFixtures.of(database);
    fixture.fixture().clean();
    return JpaOutboxStore.builder(fixture.entityManagerFactory()).listenAcrossProcesses(false).build();
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  void appendWithinWritesTheTakenEntryClaimedAndAReportedRollbackGivesItBack(TestDatabase database) {
    JpaOutboxStore store = cleanStore(database);
    TakingListener drain = new TakingListener();
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(drain)) {
      EntityManager em = JpaFixtures.of(database).entityManagerFactory().createEntityManager();
      em.getTransaction().begin();
      OutboxEntry rolledBack = store.appendWithin(em, List.of(message())).get(0);
      em.getTransaction().rollback();
      em.getTransaction().begin();
      OutboxEntry committed = store.appendWithin(em, List.of(message())).get(0);
      assertThat(drain.committedClaimed).as("reported before the commit").isEmpty();
      em.getTransaction().commit();
      em.close();

      assertThat(drain.notCommitted).as("given back at the rollback").containsExactly(rolledBack.id());
      assertThat(store.find(rolledBack.id())).as("the rolled-back entry").isEmpty();
      assertThat(drain.committedClaimed).as("reported at the commit").containsExactly(committed);
      assertThat(store.find(committed.id())).as("stored as written, claimed by the drain").contains(committed);
      assertThat(committed.currentClaim().orElseThrow().owner()).isEqualTo(DRAIN);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  void beginAppendOnIsReportedByTheCallerAndPlainAppendOnOffersNothing(TestDatabase database) throws Exception {
    JpaOutboxStore store = cleanStore(database);
    TakingListener drain = new TakingListener();
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(drain);
        Connection connection = JpaFixtures.of(database).dataSource().getConnection()) {
      connection.setAutoCommit(false);
      PendingAppend rolledBack = store.beginAppendOn(connection, List.of(message()));
      connection.rollback();
      rolledBack.rolledBack();
      PendingAppend committed = store.beginAppendOn(connection, List.of(message(), message()));
      connection.commit();
      committed.committed();
      committed.committed();
      OutboxEntry plain = store.appendOn(connection, List.of(message())).get(0);
      connection.commit();
      connection.setAutoCommit(true);

      assertThat(drain.notCommitted).containsExactlyElementsOf(rolledBack.entries().stream().map(OutboxEntry::id).toList());
      assertThat(store.find(rolledBack.entries().get(0).id())).isEmpty();
      assertThat(drain.committedClaimed).as("reported once, as written").containsExactlyElementsOf(committed.entries());
      for (OutboxEntry entry : committed.entries()) {
        assertThat(store.find(entry.id())).contains(entry);
      }
      assertThat(drain.offered).as("a plain appendOn is not offered").doesNotContain(plain.id());
      assertThat(store.find(plain.id()).orElseThrow().status()).isEqualTo(EntryStatus.PENDING);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  @DisplayName("a connection in auto-commit mode is refused before any listener hears of the append")
  void anAutoCommitConnectionIsRefusedBeforeTheListenersHear(TestDatabase database) throws Exception {
    JpaOutboxStore store = cleanStore(database);
    List<StoreCall.Kind> heard = new ArrayList<>();
    store.listen(call -> {
      heard.add(call.kind());
      return OutboxStoreListener.CallListener.NONE;
    });
    try (Connection connection = JpaFixtures.of(database).dataSource().getConnection()) {
      connection.setAutoCommit(true);

      assertThatThrownBy(() -> store.appendOn(connection, List.of(message())))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("auto-commit");
      assertThatThrownBy(() -> store.beginAppendOn(connection, List.of(message())))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("auto-commit");
    }
    assertThat(heard).as("calls the listeners heard").isEmpty();
    assertThat(JpaFixtures.of(database).fixture().countRaw()).as("rows written").isZero();
  }
}
