package io.claimedoutbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.ManualScheduler;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Against a real Kafka broker started in this JVM in KRaft mode (Kafka's own test kit), no Docker. */
@DisplayName("Kafka publisher: acknowledged by all replicas, idempotent, ordering key as record key")
class KafkaPublisherTest {

  private static KafkaClusterTestKit cluster;

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final ManualExecutor handlers = new ManualExecutor();

  @BeforeAll
  static void startBroker() throws Exception {
    cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build()).build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
  }

  @AfterAll
  static void stopBroker() throws Exception {
    cluster.close();
  }

  private static Map<String, Object> bootstrap() {
    return Map.of("bootstrap.servers", cluster.bootstrapServers());
  }

  @Test
  @DisplayName("every entry arrives as appended: payload, headers, entry id, token generation, key = ordering key")
  void entriesArriveAsAppended() throws Exception {
    String topic = "orders-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
    }
    List<OutboxEntry> appended = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      appended.add(store.append(OutboxMessage.of(topic, ("order " + i).getBytes(StandardCharsets.UTF_8))
          .withHeader("content-type", "text/plain").withOrderingKey("customer-" + (i % 3))));
    }
    ManualScheduler scheduler = new ManualScheduler();
    try (KafkaPublisher publisher = KafkaPublisher.builder(bootstrap()).build()) {
      OutboxDrain drain = OutboxDrain.builder(store, publisher).workerId(WorkerId.of("kafka"))
          .lease(Duration.ofSeconds(30)).clock(clock).executors(handlers, scheduler).build();
      for (int round = 0; round < 10 && drain.pollOnce() > 0; round++) {
        runUntilQuiet(handlers, scheduler);
      }
    } finally {
      scheduler.shutdownNow();
    }

    List<ConsumerRecord<byte[], byte[]>> received = consumeAll(topic, appended.size());
    assertThat(received).hasSize(20);
    for (OutboxEntry entry : appended) {
      ConsumerRecord<byte[], byte[]> record = received.stream()
          .filter(candidate -> entry.id().value().equals(header(candidate, KafkaPublisher.ENTRY_ID)))
          .findFirst().orElseThrow();
      assertThat(record.value()).isEqualTo(entry.message().payload());
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(entry.message().orderingKey().orElseThrow());
      assertThat(header(record, KafkaPublisher.TOKEN_GENERATION)).isEqualTo("1");
      assertThat(header(record, "content-type")).isEqualTo("text/plain");
      assertThat(store.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    }
    received.stream().map(ConsumerRecord::key).distinct().forEach(key -> assertThat(received.stream()
        .filter(record -> Arrays.equals(record.key(), key)).map(ConsumerRecord::partition).distinct())
        .as("one partition per ordering key").hasSize(1));
  }

  @Test
  void aConfigurationWithoutBrokersIsRejectedNamingIt() {
    assertThatThrownBy(() -> KafkaPublisher.builder(Map.of())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bootstrap.servers");
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  private static List<ConsumerRecord<byte[], byte[]>> consumeAll(String topic, int expected) {
    List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
      // Assigned, not subscribed: a one-broker test cluster has no group coordinator to spare.
      List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
          .map(info -> new TopicPartition(topic, info.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      for (int polls = 0; polls < 60 && received.size() < expected; polls++) {
        consumer.poll(Duration.ofMillis(500)).forEach(received::add);
      }
    }
    return received;
  }

  /**
   * Runs the handlers and the drain's queued turns on this thread until none is left: a finished
   * key's next entry is claimed through the drain's scheduler and handled in the same call.
   */
  private static void runUntilQuiet(ManualExecutor handlers, ManualScheduler scheduler) {
    while (handlers.queued() > 0 || scheduler.hasQueued()) {
      handlers.runAll();
      scheduler.runQueued();
    }
  }
}
