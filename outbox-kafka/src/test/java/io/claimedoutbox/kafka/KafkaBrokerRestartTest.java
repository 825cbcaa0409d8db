package io.claimedoutbox.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.ManualScheduler;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A broker of its own (this test stops and restarts it), in this JVM, KRaft mode. */
@DisplayName("Kafka publisher under a broker restart: nothing lost, each key's records in append order")
class KafkaBrokerRestartTest {

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final ManualExecutor handlers = new ManualExecutor();

  @Test
  @SuppressWarnings("try") // the test kit's close() may throw InterruptedException; the test declares Exception
  void aBrokerRestartMidDrainLosesNothingAndKeepsEachKeysOrder() throws Exception {
    try (KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
        .setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build()).build()) {
      cluster.format();
      cluster.startup();
      cluster.waitForReadyBrokers();
      String bootstrap = cluster.bootstrapServers();
      try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
        admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1))).all().get();
      }
      List<String> appendOrder = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        appendOrder.add(store.append(OutboxMessage.of("orders", ("order " + i).getBytes(StandardCharsets.UTF_8))
            .withOrderingKey("customer-" + (i % 3))).id().value());
      }
      ManualScheduler scheduler = new ManualScheduler();
      BrokerServer broker = cluster.brokers().values().iterator().next();
      try (KafkaPublisher publisher = KafkaPublisher.builder(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
          ProducerConfig.MAX_BLOCK_MS_CONFIG, 2_000, ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 500))
          .sendTimeout(Duration.ofSeconds(2)).build()) {
        OutboxDrain drain = OutboxDrain.builder(store, publisher).workerId(WorkerId.of("kafka"))
            .lease(Duration.ofSeconds(30)).clock(clock).executors(handlers, scheduler).build();
        // the broker goes down between the claim and the publish: the drain hands a finished key on by
        // itself (claimNextOfKeys on its scheduler), so with the broker up a first round could deliver
        // every entry before the shutdown
        drain.pollOnce();
        broker.shutdown();
        runUntilQuiet(handlers, scheduler);
        assertThat(store.countByStatus().of(EntryStatus.FAILED)).as("entries whose publish failed while the broker was"
            + " down, waiting for their retry").isPositive();
        broker.startup();
        cluster.waitForReadyBrokers();
        for (int round = 0; round < 200 && !allDelivered(appendOrder); round++) {
          drain.pollOnce();
          runUntilQuiet(handlers, scheduler);
          clock.advance(Duration.ofMinutes(10));
        }
      } finally {
        scheduler.shutdownNow();
      }

      assertThat(allDelivered(appendOrder)).as("every entry delivered after the restart").isTrue();
      List<ConsumerRecord<byte[], byte[]>> received = consumeAll(bootstrap, appendOrder.size());
      assertThat(received.stream().map(KafkaBrokerRestartTest::entryId).collect(Collectors.toSet()))
          .as("entry ids that reached the topic").containsAll(appendOrder);
      for (String key : List.of("customer-0", "customer-1", "customer-2")) {
        List<Integer> positions = received.stream().filter(record -> key.equals(new String(record.key(), StandardCharsets.UTF_8)))
            .map(record -> appendOrder.indexOf(entryId(record))).toList();
        assertThat(positions).as("append positions of " + key + " in partition order (a repeat may follow itself,"
            + " never a later entry)").isSortedAccordingTo(Integer::compare);
      }
    }
  }

  private boolean allDelivered(List<String> ids) {
    return ids.stream().allMatch(id -> store.find(EntryId.of(id)).orElseThrow().status() == EntryStatus.DELIVERED);
  }

  private static String entryId(ConsumerRecord<byte[], byte[]> record) {
    return new String(record.headers().lastHeader(KafkaPublisher.ENTRY_ID).value(), StandardCharsets.UTF_8);
  }

  private static List<ConsumerRecord<byte[], byte[]>> consumeAll(String bootstrap, int expected) {
    List<ConsumerRecord<byte[], byte[]>> received = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class,
        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class))) {
      List<TopicPartition> partitions = consumer.partitionsFor("orders").stream()
          .map(info -> new TopicPartition("orders", info.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      for (int polls = 0; polls < 40 && received.size() < expected; polls++) {
        consumer.poll(Duration.ofMillis(500)).forEach(received::add);
      }
      consumer.poll(Duration.ofMillis(500)).forEach(received::add);
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
