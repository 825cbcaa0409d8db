package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.kafka.KafkaPublisher;
import io.claimedoutbox.rabbitmq.RabbitMqPublisher;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Publishers configured by properties alone, against the machine's RabbitMQ and an in-process Kafka
 * broker: the application writes no handler and no publisher bean.
 */
@DisplayName("Spring Boot starter: RabbitMQ and Kafka publishers from properties, topics routed as configured")
class StarterPublishersTest {

  private static final String RABBITMQ = Optional.ofNullable(System.getenv("OUTBOX_RABBITMQ_HOST")).orElse("127.0.0.1:5672");

  private static ApplicationContextRunner onPostgreSql(PostgreSqlSchema schema) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, ClaimedOutboxAutoConfiguration.class))
        .withPropertyValues("spring.datasource.url=" + schema.url(), "claimed-outbox.schema.migrate=false",
            "claimed-outbox.schema.initialize=always", "claimed-outbox.retention.enabled=false");
  }

  private static Connection rabbitMq() {
    ConnectionFactory factory = new ConnectionFactory();
    String[] hostAndPort = RABBITMQ.split(":");
    factory.setHost(hostAndPort[0]);
    factory.setPort(Integer.parseInt(hostAndPort[1]));
    try {
      return factory.newConnection("outbox-starter-test");
    } catch (Exception unreachable) {
      throw new IllegalStateException("RabbitMQ is required for this test but is not reachable at " + RABBITMQ
          + ". Start it (`bash .ci/run` does) or set OUTBOX_RABBITMQ_HOST=host:port.", unreachable);
    }
  }

  @Test
  @DisplayName("rabbitmq.exchange turns the publisher on; a route sends one topic elsewhere; the drain runs it as its handler")
  void rabbitMqPublisherFromProperties() throws Exception {
    String exchange = "outbox-starter-" + UUID.randomUUID();
    try (PostgreSqlSchema schema = new PostgreSqlSchema(); Connection admin = rabbitMq()) {
      Channel channel = admin.createChannel();
      channel.exchangeDeclare(exchange, "topic", false, true, null);
      String placed = channel.queueDeclare().getQueue();
      String other = channel.queueDeclare().getQueue();
      channel.queueBind(placed, exchange, "orders.placed");
      channel.queueBind(other, exchange, "invoices");
      String[] hostAndPort = RABBITMQ.split(":");
      onPostgreSql(schema)
          .withPropertyValues("spring.rabbitmq.host=" + hostAndPort[0], "spring.rabbitmq.port=" + hostAndPort[1],
              "claimed-outbox.publisher.rabbitmq.exchange=" + exchange,
              "claimed-outbox.publisher.rabbitmq.routes.orders.routing-key=orders.placed",
              "claimed-outbox.publisher.rabbitmq.confirm-timeout=5s")
          .run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(RabbitMqPublisher.class).hasSingleBean(OutboxDrainLifecycle.class);
            ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
            OutboxEntry order = store.append(OutboxMessage.of("orders", "order 42".getBytes(StandardCharsets.UTF_8)));
            OutboxEntry invoice = store.append(OutboxMessage.of("invoices", "invoice 7".getBytes(StandardCharsets.UTF_8)));

            GetResponse fromPlaced = await(channel, placed);
            GetResponse fromOther = await(channel, other);
            assertThat(fromPlaced.getProps().getMessageId()).isEqualTo(order.id().value());
            assertThat(new String(fromPlaced.getBody(), StandardCharsets.UTF_8)).isEqualTo("order 42");
            assertThat(fromOther.getProps().getMessageId()).isEqualTo(invoice.id().value());
          });
    }
  }

  private static GetResponse await(Channel channel, String queue) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    GetResponse response;
    while ((response = channel.basicGet(queue, true)) == null) {
      assertThat(Instant.now()).as("a message on %s within 30 s", queue).isBefore(deadline);
      Thread.onSpinWait();
    }
    return response;
  }

  @Test
  @DisplayName("kafka.enabled turns the publisher on; a topic mapping renames one topic; the ordering key is the record key")
  void kafkaPublisherFromProperties() throws Exception {
    try (PostgreSqlSchema schema = new PostgreSqlSchema(); KafkaClusterTestKit broker = new KafkaClusterTestKit.Builder(
        new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build()).build()) {
      broker.format();
      broker.startup();
      broker.waitForReadyBrokers();
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
        admin.createTopics(List.of(new NewTopic("shop.orders", 1, (short) 1))).all().get();
      }
      onPostgreSql(schema)
          .withPropertyValues("spring.kafka.bootstrap-servers=" + broker.bootstrapServers(),
              "claimed-outbox.publisher.kafka.enabled=true",
              "claimed-outbox.publisher.kafka.topics.orders=shop.orders")
          .run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(KafkaPublisher.class);
            ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
            OutboxEntry order = store.append(OutboxMessage.of("orders", new byte[] {42}).withOrderingKey("customer-7"));

            ConsumerRecord<byte[], byte[]> received = firstRecord(broker.bootstrapServers(), "shop.orders",
                () -> String.valueOf(store.find(order.id())));
            assertThat(new String(received.key(), StandardCharsets.UTF_8)).isEqualTo("customer-7");
            assertThat(received.value()).containsExactly(42);
            assertThat(new String(received.headers().lastHeader(KafkaPublisher.ENTRY_ID).value(), StandardCharsets.UTF_8))
                .isEqualTo(order.id().value());
          });
    }
  }

  private static ConsumerRecord<byte[], byte[]> firstRecord(String servers, String topic, Supplier<String> entry) {
    Map<String, Object> config = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, servers,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      // Assigned, not subscribed: a one-broker test cluster has no group coordinator to spare.
      List<TopicPartition> partitions = List.of(new TopicPartition(topic, 0));
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      while (records.isEmpty()) {
        if (Instant.now().isAfter(deadline)) {
          throw new AssertionError("no record on " + topic + " within 60 s; the entry: " + entry.get());
        }
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
      return records.get(0);
    }
  }
}
