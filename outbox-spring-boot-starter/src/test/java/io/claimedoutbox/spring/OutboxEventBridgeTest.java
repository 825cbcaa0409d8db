package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.TypedMessages;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** Spring application events through the outbox, for applications without Spring Modulith. */
@DisplayName("Spring Boot starter: an @OutboxEvent published in a transaction is appended in it and delivered typed")
class OutboxEventBridgeTest {

  /** An event the application marks for the outbox. */
  @OutboxEvent(topic = "orders", orderingKey = "customerId()")
  record OrderPlaced(String orderId, String customerId) {}

  /** An event that stays inside the application. */
  record OrderViewed(String orderId) {}

  private static ApplicationContextRunner app(PostgreSqlSchema schema, OutboxMessageHandler handler) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, JacksonAutoConfiguration.class,
            ClaimedOutboxAutoConfiguration.class))
        .withBean(OutboxMessageHandler.class, () -> handler)
        .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.schema.migrate=false",
            "claimed-outbox.schema.initialize=always", "claimed-outbox.retention.enabled=false");
  }

  @Test
  void markedEventsJoinThePublishersTransaction() throws Exception {
    List<OutboxEntry> delivered = new CopyOnWriteArrayList<>();
    CountDownLatch one = new CountDownLatch(1);
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      app(schema, message -> {
        delivered.add(message.entry());
        one.countDown();
      }).run(context -> {
        assertThat(context).hasNotFailed();
        ApplicationEventPublisher events = context;
        TransactionTemplate transaction = new TransactionTemplate(context.getBean(PlatformTransactionManager.class));
        ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);

        transaction.executeWithoutResult(status -> {
          events.publishEvent(new OrderPlaced("o-1", "c-1"));
          status.setRollbackOnly();
        });
        assertThat(store.countByStatus().total()).as("after the rollback").isZero();
        transaction.executeWithoutResult(status -> {
          events.publishEvent(new OrderPlaced("o-2", "c-2"));
          events.publishEvent(new OrderViewed("o-2"));
        });

        assertThat(one.await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
        assertThat(store.countByStatus().total()).as("the marked event only").isEqualTo(1);
        OutboxEntry entry = delivered.get(0);
        assertThat(entry.message().topic()).isEqualTo("orders");
        assertThat(entry.message().orderingKey()).contains("c-2");
        assertThat(TypedMessages.read(entry, OrderPlaced.class, context.getBean(PayloadCodec.class)))
            .isEqualTo(new OrderPlaced("o-2", "c-2"));
      });
    }
  }

  @Test
  @DisplayName("without a PayloadCodec bean, publishing a marked event fails naming what to add; nothing is appended")
  void withoutACodecThePublishFails() {
    try (PostgreSqlSchema schema = new PostgreSqlSchema()) {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, ClaimedOutboxAutoConfiguration.class))
          .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.schema.migrate=false",
              "claimed-outbox.schema.initialize=always", "claimed-outbox.retention.enabled=false")
          .run(context -> {
            assertThat(context).hasNotFailed();
            assertThatThrownBy(() -> context.publishEvent(new OrderPlaced("o-1", "c-1")))
                .hasMessageContaining(OrderPlaced.class.getName()).hasMessageContaining("outbox-jackson")
                .hasMessageContaining("spring-boot-starter-jackson");
            assertThat(context.getBean(ClaimedOutboxStore.class).countByStatus().total()).isZero();
          });
    }
  }
}
