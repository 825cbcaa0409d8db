package io.claimedoutbox.modulith;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.claimedoutbox.modulith.shop.ShopApplication;
import io.claimedoutbox.modulith.shop.ShopApplication.OrderPlaced;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.rabbitmq.RabbitMqPublisher;
import io.claimedoutbox.spring.ClaimedOutboxAutoConfiguration;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.test.simple.SimpleTracer;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A Spring Modulith application on the machine's PostgreSQL (plain JDBC, no JPA) with the outbox as
 * its outbox for externalized events, the RabbitMQ publisher configured by properties, and a tracer:
 * what reaches RabbitMQ, when, and with which trace.
 */
@DisplayName("Spring Modulith: an @Externalized event is appended in the publishing transaction and reaches RabbitMQ through the drain")
class ModulithOutboxTest {

  private static final String POSTGRESQL = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
  private static final String RABBITMQ = Optional.ofNullable(System.getenv("OUTBOX_RABBITMQ_HOST")).orElse("127.0.0.1:5672");

  private final String schema = "outbox_modulith_" + UUID.randomUUID().toString().substring(0, 8);
  private final String exchange = "outbox-modulith-" + UUID.randomUUID();
  private final SimpleTracer tracer = new SimpleTracer();
  private Connection rabbitMq;
  private Channel channel;
  private String queue;

  @BeforeEach
  void createSchemaAndQueue() throws Exception {
    sql("CREATE SCHEMA " + schema);
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(RABBITMQ.split(":")[0]);
    factory.setPort(Integer.parseInt(RABBITMQ.split(":")[1]));
    try {
      rabbitMq = factory.newConnection("outbox-modulith-test");
    } catch (Exception unreachable) {
      throw new IllegalStateException("RabbitMQ is required for this test but is not reachable at " + RABBITMQ
          + ". Start it (`bash .ci/run` does) or set OUTBOX_RABBITMQ_HOST=host:port.", unreachable);
    }
    channel = rabbitMq.createChannel();
    channel.exchangeDeclare(exchange, "topic", false, true, null);
    queue = channel.queueDeclare().getQueue();
    channel.queueBind(queue, exchange, "orders");
  }

  @AfterEach
  void dropSchemaAndExchange() throws Exception {
    channel.exchangeDelete(exchange);
    rabbitMq.close();
    sql("DROP SCHEMA " + schema + " CASCADE");
  }

  private static void sql(String statement) {
    try (java.sql.Connection connection = DriverManager.getConnection(POSTGRESQL)) {
      connection.createStatement().execute(statement);
    } catch (SQLException unreachable) {
      throw new IllegalStateException("PostgreSQL is required for this test but " + POSTGRESQL + " failed: "
          + unreachable.getMessage() + ". Start it (`bash .ci/run` does) or set OUTBOX_POSTGRESQL_URL.", unreachable);
    }
  }

  private ApplicationContextRunner shop() {
    String[] hostAndPort = RABBITMQ.split(":");
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
            DataSourceTransactionManagerAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
            JacksonAutoConfiguration.class, ClaimedOutboxAutoConfiguration.class, ModulithOutboxAutoConfiguration.class))
        .withUserConfiguration(ShopApplication.class)
        .withBean(Tracer.class, () -> tracer)
        .withPropertyValues("spring.datasource.url=" + POSTGRESQL + "&currentSchema=" + schema,
            "claimed-outbox.schema.migrate=false", "claimed-outbox.schema.initialize=always",
            "claimed-outbox.retention.enabled=false",
            "spring.rabbitmq.host=" + hostAndPort[0], "spring.rabbitmq.port=" + hostAndPort[1],
            "claimed-outbox.publisher.rabbitmq.exchange=" + exchange);
  }

  @Test
  @DisplayName("committed: on RabbitMQ with the routing key of its target, its ordering key and the publishing request's trace")
  void committedEventReachesRabbitMqWithItsTrace() {
    shop().run(context -> {
      assertThat(context).hasNotFailed().hasSingleBean(RabbitMqPublisher.class);
      Span request = tracer.nextSpan().name("POST /orders").start();
      try (Tracer.SpanInScope scope = tracer.withSpan(request)) {
        context.getBean(ShopApplication.Orders.class).place(new OrderPlaced("o-1", "c-7", 4200), false);
      } finally {
        request.end();
      }

      GetResponse message = await();
      assertThat(new String(message.getBody(), StandardCharsets.UTF_8))
          .contains("\"orderId\":\"o-1\"").contains("\"customerId\":\"c-7\"").contains("\"cents\":4200");
      assertThat(message.getProps().getHeaders()).containsKey(RabbitMqPublisher.ORDERING_KEY);
      assertThat(message.getProps().getHeaders().get(RabbitMqPublisher.ORDERING_KEY)).hasToString("c-7");
      assertThat(message.getProps().getHeaders().get("traceparent")).asString()
          .contains(request.context().traceId()).contains(request.context().spanId());
      assertThat(context.getBean(OutboxOperations.class).countByStatus().total())
          .as("entries: the externalized event only, not the internal one").isEqualTo(1);
    });
  }

  @Test
  @DisplayName("rolled back: nothing appended, nothing on RabbitMQ, the order not saved")
  void rolledBackEventIsNotAppended() {
    shop().run(context -> {
      assertThat(context).hasNotFailed();
      context.getBean(ShopApplication.Orders.class).place(new OrderPlaced("o-2", "c-7", 100), true);

      assertThat(context.getBean(OutboxOperations.class).countByStatus().total()).as("entries").isZero();
      assertThat(context.getBean(JdbcTemplate.class).queryForObject("SELECT count(*) FROM shop_order", Long.class))
          .isZero();
      context.getBean(ShopApplication.Orders.class).place(new OrderPlaced("o-3", "c-8", 100), false);
      assertThat(new String(await().getBody(), StandardCharsets.UTF_8)).as("the next committed one")
          .contains("\"orderId\":\"o-3\"");
      assertThat(channel.basicGet(queue, true)).as("nothing else on the queue").isNull();
    });
  }

  private GetResponse await() throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    GetResponse response;
    while ((response = channel.basicGet(queue, true)) == null) {
      assertThat(Instant.now()).as("a message on the queue within 30 s").isBefore(deadline);
      Thread.onSpinWait();
    }
    return response;
  }
}
