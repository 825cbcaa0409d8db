package io.claimedoutbox.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxEntryRecord;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import jakarta.persistence.EntityManager;
import java.time.Duration;
import java.util.List;
import org.h2.jdbcx.JdbcDataSource;
import org.hibernate.SessionFactory;
import org.hibernate.Version;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The library wired by hand in an application on Hibernate ORM 6.6 (Jakarta Persistence 3.1), without the starter. */
@DisplayName("Hibernate ORM 6.6, wired by hand: appendWithin commits and rolls back with the EntityManager, the SQL store reads it")
class HandWiredOnHibernate66Test {

  @Test
  void jpaAndJdbcStoresWorkOnHibernate66() {
    assertThat(Version.getVersionString()).startsWith("6.6");
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:hand-wired-66;DB_CLOSE_DELAY=-1");
    OutboxSchema.create(h2, OutboxDatabase.H2);
    Configuration configuration = new Configuration().addAnnotatedClass(OutboxEntryRecord.class);
    configuration.getProperties().put(AvailableSettings.DATASOURCE, h2);
    configuration.getProperties().put(AvailableSettings.JDBC_TIME_ZONE, "UTC");
    try (SessionFactory factory = configuration.buildSessionFactory()) {
      JpaOutboxStore store = JpaOutboxStore.builder(factory).build();

      appendWithin(factory, store, true);
      assertThat(store.countByStatus().total()).as("entries after a rolled-back transaction").isZero();
      OutboxEntry appended = appendWithin(factory, store, false);

      Claim claim = store.claimDue(WorkerId.of("w"), 10, Duration.ofSeconds(30)).get(0);
      assertThat(claim.entryId()).isEqualTo(appended.id());
      assertThat(store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()).outcome())
          .isEqualTo(ClaimTransitionOutcome.APPLIED);
      JdbcOutboxStore sql = JdbcOutboxStore.builder(h2).build();
      assertThat(sql.find(appended.id())).get().extracting(OutboxEntry::status).isEqualTo(EntryStatus.DELIVERED);
    }
  }

  private static OutboxEntry appendWithin(SessionFactory factory, JpaOutboxStore store, boolean rollBack) {
    EntityManager em = factory.createEntityManager();
    try {
      em.getTransaction().begin();
      List<OutboxEntry> appended = store.appendWithin(em, List.of(OutboxMessage.of("orders", new byte[] {1})));
      if (rollBack) {
        em.getTransaction().rollback();
      } else {
        em.getTransaction().commit();
      }
      return appended.get(0);
    } finally {
      em.close();
    }
  }
}
