package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.micrometer.OutboxMetrics;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import io.micrometer.core.instrument.Counter;
import java.util.concurrent.CountDownLatch;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxClaimStore;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.OutboxStore;
import io.claimedoutbox.spring.app.OrderService;
import io.claimedoutbox.spring.app.OrdersTestApplication;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The starter in a Boot application on the machine's PostgreSQL, as a team would use it. */
@SpringBootTest(classes = OrdersTestApplication.class, properties = {
    "spring.jpa.hibernate.ddl-auto=create", "claimed-outbox.drain.concurrency=2"})
@DirtiesContext
@Import(StarterOnPostgreSqlTest.DropSchemaOnClose.class)
@DisplayName("Spring Boot starter on PostgreSQL: one store bean, appends in the caller's transaction, drain, health, schema")
class StarterOnPostgreSqlTest {

  private static final PostgreSqlSchema SCHEMA = new PostgreSqlSchema();

  @DynamicPropertySource
  static void dataSource(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", SCHEMA::url);
  }

  /** Drops the schema when the context closes: after the drain stopped, so it never claims from a dropped table. */
  @TestConfiguration
  static class DropSchemaOnClose {
    @Bean
    AutoCloseable dropOutboxStarterSchema() {
      return SCHEMA::close;
    }
  }

  @Autowired
  ApplicationContext context;
  @Autowired
  OrderService orders;
  @Autowired
  OrdersTestApplication.Deliveries deliveries;
  @Autowired
  DataSource dataSource;
  @Autowired
  ClaimedOutboxStore store;

  @Test
  void oneStoreInstanceServesEveryContract() {
    assertThat(context.getBean(OutboxStore.class)).isSameAs(store);
    assertThat(context.getBean(OutboxClaimStore.class)).isSameAs(store);
    assertThat(context.getBean(OutboxClaimOutcomeStore.class)).isSameAs(store);
    assertThat(context.getBean(OutboxOperations.class)).isSameAs(store);
  }

  @Test
  void aRolledBackOrderLeavesNoEntryAndACommittedOneIsDelivered() throws Exception {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    assertThatThrownBy(() -> orders.place("order-rolled-back", 0)).isInstanceOf(IllegalArgumentException.class);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM placed_order WHERE id = 'order-rolled-back'", Long.class)).isZero();
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM outbox_entry WHERE ordering_key = 'order-rolled-back'",
        Long.class)).as("entries of the rolled-back order").isZero();

    deliveries.expect(1);
    orders.place("order-1", 3);
    assertThat(deliveries.latch().await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
    assertThat(deliveries.all()).anyMatch(entry -> entry.message().orderingKey().orElseThrow().equals("order-1"));
    String status = jdbc.queryForObject("SELECT status FROM outbox_entry WHERE ordering_key = 'order-1'", String.class);
    assertThat(List.of("CLAIMED", "DELIVERED")).contains(status);
  }

  @Test
  void theDrainIsToldOfACommitAndNotOfARollback() {
    List<List<OutboxEntry>> told = new CopyOnWriteArrayList<>();
    // commits heard from other processes come without entries; only this JVM's commits name them
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(appended -> {
      if (!appended.isEmpty()) {
        told.add(appended);
      }
    })) {
      assertThatThrownBy(() -> orders.place("order-told-rolled-back", 0)).isInstanceOf(IllegalArgumentException.class);
      assertThat(told).as("told of a rolled-back order").isEmpty();
      orders.place("order-told", 2);
      assertThat(told).as("told once, after the commit, of the order's entries").hasSize(1);
      assertThat(told.get(0)).allMatch(entry -> entry.message().orderingKey().orElseThrow().equals("order-told"));
    }
  }

  @Test
  void theSchemaIsMigratedUnderAHistoryTableOfItsOwn() {
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    assertThat(jdbc.queryForList("SELECT version FROM claimed_outbox_schema_history WHERE success ORDER BY installed_rank",
        String.class)).containsSubsequence("1", "2", "3", "5");
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'outbox_entry'"
        + " AND indexname IN ('outbox_entry_unkeyed_due', 'outbox_entry_keyed_due', 'outbox_entry_finished')", Long.class))
        .isEqualTo(3);
  }

  @Test
  void healthAndGaugesReportTheBacklog() {
    OutboxHealthIndicator health = context.getBean("outboxHealthIndicator", OutboxHealthIndicator.class);
    var report = health.health(true);
    assertThat(report.getStatus()).isEqualTo(Status.UP);
    assertThat(report.getDetails()).containsEntry("backend", "jpa").containsKeys("pending", "delivered",
        "oldestDueAgeSeconds", "drain");
    MeterRegistry meters = context.getBean(MeterRegistry.class);
    assertThat(meters.find(OutboxMetrics.ENTRIES).tag(OutboxMetrics.TAG_STATUS, EntryStatus.PENDING.tagValue()).gauge())
        .isNotNull();
    assertThat(meters.find("outbox.drain.failures").tag("part", "claim").functionCounter()).as("the drain's failures")
        .isNotNull();
    assertThat(meters.find("outbox.drain.held_payload_bytes").gauge()).isNotNull();
  }

  @Test
  @DisplayName("every call is observed once, by listeners of the backend's store: one timer per transition call")
  void everyCallIsObservedOnceByListenersOfTheBackendsStore() throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    try (OutboxStoreListener.Registration heard = store.listen(call -> call.kind() != StoreCall.Kind.TRANSITION
        ? OutboxStoreListener.CallListener.NONE : new OutboxStoreListener.CallListener() {
          @Override
          public void transitioned(List<ClaimTransitionResult> results, long nanos) {
            if (results.stream().anyMatch(result -> result.isApplied() && result.entry().status() == EntryStatus.DELIVERED
                && result.entry().message().orderingKey().orElseThrow().equals("order-observed"))) {
              delivered.countDown();
            }
          }
        })) {
      orders.place("order-observed", 1);
      assertThat(delivered.await(30, TimeUnit.SECONDS)).as("its delivery heard within 30 s").isTrue();
    }
    MeterRegistry meters = context.getBean(MeterRegistry.class);
    assertThat(meters.find(OutboxMetrics.APPENDED_ENTRIES).counter().count()).isGreaterThanOrEqualTo(1);
    assertThat(meters.find(OutboxMetrics.CLAIMED_ENTRIES).counters().stream().mapToDouble(Counter::count).sum())
        .as("claims are observed").isGreaterThanOrEqualTo(1);
    assertThat(meters.find(OutboxMetrics.TRANSITION_ATTEMPTS).tag(OutboxMetrics.OUTCOME, "applied").counters())
        .isNotEmpty();
    assertThat(meters.find(OutboxMetrics.TRANSITION_DURATION).timers())
        .as("the transition timer comes from the observation alone (its meter handler adds the error tag)")
        .isNotEmpty().allSatisfy(timer -> assertThat(timer.getId().getTag("error")).isNotNull());
    assertThat(meters.find("outbox.transition").meters()).as("no second timer under another name").isEmpty();
  }

  @Test
  void theDrainAndRetentionRunAsLifecycleBeans() {
    assertThat(context.getBean(OutboxDrainLifecycle.class).isRunning()).isTrue();
    assertThat(context.getBean(OutboxRetentionLifecycle.class).isRunning()).isTrue();
  }
}
