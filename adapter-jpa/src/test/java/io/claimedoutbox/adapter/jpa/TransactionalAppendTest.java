package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.StoreCapability;
import jakarta.persistence.EntityManager;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("JPA adapter: appendWithin joins the caller's transaction (PostgreSQL)")
class TransactionalAppendTest {

  private final JpaTestKit fixture = JpaFixtures.of(TestDatabase.POSTGRESQL);
  private JpaOutboxStore store;

  @BeforeEach
  void cleanStore() {
    fixture.fixture().clean();
    store = JpaOutboxStore.builder(fixture.entityManagerFactory()).build();
  }

  @Test
  @DisplayName("entries appear when the caller commits, and match what appendWithin returned")
  void committedWithCaller() {
    EntityManager em = fixture.entityManagerFactory().createEntityManager();
    em.getTransaction().begin();
    List<OutboxEntry> appended = store.appendWithin(em, List.of(OutboxMessage.of("t", new byte[] {7})));
    assertThat(fixture.fixture().countRaw()).as("rows visible before the caller commits").isZero();
    em.getTransaction().commit();
    em.close();

    assertThat(store.find(appended.get(0).id())).contains(appended.get(0));
    assertThat(store.capabilities()).contains(StoreCapability.TRANSACTIONAL_APPEND);
  }

  @Test
  @DisplayName("nothing is stored when the caller rolls back")
  void rolledBackWithCaller() {
    EntityManager em = fixture.entityManagerFactory().createEntityManager();
    em.getTransaction().begin();
    store.appendWithin(em, List.of(OutboxMessage.of("t", new byte[] {7})));
    em.getTransaction().rollback();
    em.close();

    assertThat(fixture.fixture().countRaw()).isZero();
  }

  @Test
  @DisplayName("without an active transaction it refuses and writes nothing")
  void refusesWithoutTransaction() {
    EntityManager em = fixture.entityManagerFactory().createEntityManager();
    assertThatThrownBy(() -> store.appendWithin(em, List.of(OutboxMessage.of("t", new byte[] {7}))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("active transaction");
    em.close();
    assertThat(fixture.fixture().countRaw()).isZero();
  }
}
