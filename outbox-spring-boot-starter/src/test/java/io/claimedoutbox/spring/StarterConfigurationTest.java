package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.jooq.autoconfigure.JooqAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import redis.clients.jedis.JedisPooled;

/** The starter's choices and failures, each in a small context. */
@DisplayName("Spring Boot starter: Redis backend, a DataSource without JPA (JdbcTemplate, jOOQ), Liquibase, the schema check, no backend, unsupported versions")
class StarterConfigurationTest {

  private static final String REDIS = Optional.ofNullable(System.getenv("OUTBOX_REDIS_URL"))
      .map(url -> url.startsWith("redis://") ? url : "redis://" + url).orElse("redis://127.0.0.1:6379");

  @Test
  void onRedisTheStoreAppendsAndTheDrainDelivers() throws Exception {
    String prefix = "outbox-starter-" + UUID.randomUUID().toString().substring(0, 8);
    CountDownLatch delivered = new CountDownLatch(1);
    try {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("claimed-outbox.redis.url=" + REDIS, "claimed-outbox.redis.key-prefix=" + prefix)
          .withBean(OutboxMessageHandler.class, () -> message -> delivered.countDown())
          .run(context -> {
            assertThat(context).hasNotFailed();
            ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
            assertThat(context.getBean(OutboxClaimOutcomeStore.class)).isSameAs(store);
            store.append(OutboxMessage.of("orders", new byte[] {1}));
            assertThat(delivered.await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
            assertThat(context.getBean(OutboxBackend.class).name()).isEqualTo("redis");
          });
    } finally {
      try (JedisPooled redis = new JedisPooled(java.net.URI.create(REDIS))) {
        redis.keys("{" + prefix + ":*").forEach(redis::del);
      }
    }
  }

  @Test
  @DisplayName("without JPA, on a DataSource: the SQL store, appends that commit and roll back with JdbcTemplate's work")
  void onADataSourceWithoutJpaAppendsJoinTheJdbcTransaction() throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
              DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
              ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.retention.enabled=false")
          .withBean(OutboxMessageHandler.class, () -> message -> delivered.countDown())
          .run(context -> {
            assertThat(context).hasNotFailed();
            OutboxBackend backend = context.getBean(OutboxBackend.class);
            assertThat(backend.name()).isEqualTo("jdbc");
            assertThat(backend.store()).isExactlyInstanceOf(JdbcOutboxStore.class);
            JdbcTemplate jdbc = context.getBean(JdbcTemplate.class);
            jdbc.execute("CREATE TABLE orders (id TEXT)");
            rolledBackThenCommitted(context, id -> jdbc.update("INSERT INTO orders (id) VALUES (?)", id),
                () -> jdbc.queryForList("SELECT id FROM orders", String.class), delivered);
          });
    }
  }

  @Test
  @DisplayName("jOOQ under Spring's transactions (Boot's jOOQ auto-configuration): appends commit and roll back with jOOQ's writes")
  void withJooqAppendsJoinTheSpringTransaction() throws Exception {
    CountDownLatch delivered = new CountDownLatch(1);
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
              DataSourceTransactionManagerAutoConfiguration.class, JooqAutoConfiguration.class,
              ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.retention.enabled=false")
          .withBean(OutboxMessageHandler.class, () -> message -> delivered.countDown())
          .run(context -> {
            assertThat(context).hasNotFailed();
            DSLContext jooq = context.getBean(DSLContext.class);
            jooq.execute("CREATE TABLE orders (id TEXT)");
            rolledBackThenCommitted(context,
                id -> jooq.insertInto(DSL.table("orders")).columns(DSL.field("id")).values(id).execute(),
                () -> jooq.fetchValues("SELECT id FROM orders").stream().map(String::valueOf).toList(), delivered);
          });
    }
  }

  /**
   * One order and its entry in a transaction that rolls back, then another in one that commits: only
   * the second order is saved, and its entry is the only one, delivered.
   */
  private static void rolledBackThenCommitted(ApplicationContext context, Consumer<String> saveOrder,
      Supplier<List<String>> savedOrders, CountDownLatch delivered) throws InterruptedException {
    ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
    TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
    transaction.executeWithoutResult(status -> {
      saveOrder.accept("rolled back");
      store.append(OutboxMessage.of("orders", new byte[] {0}));
      status.setRollbackOnly();
    });
    assertThat(store.countByStatus().total()).as("entries after the rollback").isZero();
    transaction.executeWithoutResult(status -> {
      saveOrder.accept("42");
      store.append(OutboxMessage.of("orders", new byte[] {1}));
    });

    assertThat(delivered.await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
    assertThat(savedOrders.get()).containsExactly("42");
    assertThat(store.countByStatus().total()).isEqualTo(1);
  }

  @Test
  @DisplayName("schema.initialize=always: the starter creates the table without a migration tool, and again finds it at the next start")
  void initializeAlwaysCreatesTheSchemaWithoutAMigrationTool() {
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      ApplicationContextRunner runner = new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.schema.migrate=false",
              "claimed-outbox.schema.initialize=always", "claimed-outbox.retention.enabled=false");
      for (int start = 1; start <= 2; start++) {
        runner.run(context -> {
          assertThat(context).hasNotFailed();
          ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
          store.append(OutboxMessage.of("orders", new byte[] {1}));
          assertThat(store.countByStatus().total()).isPositive();
        });
      }
    }
  }

  @Test
  void withoutFlywayAMissingTableFailsTheStartNamingIt() {
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
              ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.schema.migrate=false")
          .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
              .hasMessageContaining("the table outbox_entry does not exist")
              .hasMessageContaining("claimed-outbox.schema.initialize=always")
              .hasMessageContaining("V1__create_outbox_entry.sql"));
    }
  }

  @Test
  void withLiquibaseTheTableIsMadeUnderAChangelogOfItsOwn() {
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, HibernateJpaAutoConfiguration.class,
              ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.schema.tool=liquibase",
              "claimed-outbox.retention.enabled=false")
          .run(context -> {
            assertThat(context).hasNotFailed();
            JdbcTemplate jdbc = new JdbcTemplate(context.getBean(DataSource.class));
            assertThat(jdbc.queryForList("SELECT id FROM claimed_outbox_changelog ORDER BY orderexecuted", String.class))
                .containsExactly("claimed-outbox-V1", "claimed-outbox-V2", "claimed-outbox-V3", "claimed-outbox-V5");
            ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
            store.append(OutboxMessage.of("orders", new byte[] {1}));
            assertThat(store.countByStatus().total()).isEqualTo(1);
          });
    }
  }

  @Test
  void withNoBackendTheStartSaysWhatToAdd() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClaimedOutboxAutoConfiguration.class))
        .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
            .hasMessageContaining("found no backend").hasMessageContaining("claimed-outbox.redis.url"));
  }

  @Test
  void unsupportedBootOrHibernateVersionsAreNamed() {
    assertThat(HibernateVersionCheck.check("4.0.7", "7.2.19.Final")).isEmpty();
    assertThat(HibernateVersionCheck.check("4.0.7", "7.4.15.Final")).isEmpty();
    assertThat(HibernateVersionCheck.check("3.5.7", "6.6.33.Final")).get().asString()
        .contains("Spring Boot 3.5.7", "Hibernate ORM 6.6.33.Final", "Spring Boot 4.0");
    assertThat(HibernateVersionCheck.check("4.0.7", "6.6.33.Final")).isPresent();
  }
}
