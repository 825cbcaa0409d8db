package io.claimedoutbox.rabbitmq;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.claimedoutbox.conformance.FaultProxy;
import io.claimedoutbox.conformance.ManualExecutor;
import io.claimedoutbox.conformance.ManualScheduler;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryId;
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
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Against the RabbitMQ server on this machine (127.0.0.1:5672, guest/guest, or OUTBOX_RABBITMQ_HOST). */
@DisplayName("RabbitMQ publisher: confirmed, mandatory, fenced; nothing lost when the connection is cut")
class RabbitMqPublisherTest {

  private static final String HOST = Optional.ofNullable(System.getenv("OUTBOX_RABBITMQ_HOST")).orElse("127.0.0.1:5672");

  private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  private final InMemoryOutboxStore store = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
  private final ManualExecutor handlers = new ManualExecutor();
  private final ManualScheduler scheduler = new ManualScheduler();
  private final String exchange = "outbox-test-" + UUID.randomUUID();
  private Connection admin;
  private Channel adminChannel;
  private String queue;

  private static ConnectionFactory factory(String host, int port) {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(host);
    factory.setPort(port);
    factory.setUsername("guest");
    factory.setPassword("guest");
    factory.setConnectionTimeout(5_000);
    factory.setAutomaticRecoveryEnabled(false);
    return factory;
  }

  private static ConnectionFactory broker() {
    String[] parts = HOST.split(":");
    return factory(parts[0], Integer.parseInt(parts[1]));
  }

  @BeforeEach
  void declareExchangeAndQueue() throws Exception {
    try {
      admin = broker().newConnection("outbox-test-admin");
    } catch (Exception unreachable) {
      throw new IllegalStateException("RabbitMQ is required for these tests but is not reachable at " + HOST
          + ". Start it (`bash .ci/run` runs `rabbitmq-server -detached`) or set OUTBOX_RABBITMQ_HOST=host:port.",
          unreachable);
    }
    adminChannel = admin.createChannel();
    adminChannel.exchangeDeclare(exchange, "topic", false, true, null);
    queue = adminChannel.queueDeclare().getQueue();
  }

  @AfterEach
  void cleanUp() throws Exception {
    scheduler.shutdownNow();
    adminChannel.exchangeDelete(exchange);
    admin.close();
  }

  private OutboxDrain drain(RabbitMqPublisher publisher) {
    return OutboxDrain.builder(store, publisher).workerId(WorkerId.of("rabbit")).lease(Duration.ofSeconds(30))
        .clock(clock).executors(handlers, scheduler).build();
  }

  /**
   * Runs the handlers and the drain's queued turns on this thread until none is left: a finished
   * key's next entry is claimed through the drain's scheduler and handled in the same call.
   */
  private void runUntilQuiet() {
    while (handlers.queued() > 0 || scheduler.hasQueued()) {
      handlers.runAll();
      scheduler.runQueued();
    }
  }

  private List<GetResponse> consumeAll() throws Exception {
    List<GetResponse> received = new ArrayList<>();
    GetResponse next;
    while ((next = adminChannel.basicGet(queue, true)) != null) {
      received.add(next);
    }
    return received;
  }

  @Test
  @DisplayName("every entry arrives once, as appended: payload, headers, id, token generation, persistent")
  void entriesArriveAsAppended() throws Exception {
    adminChannel.queueBind(queue, exchange, "#");
    List<OutboxEntry> appended = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      appended.add(store.append(OutboxMessage.of("orders.placed", ("order " + i).getBytes(StandardCharsets.UTF_8))
          .withHeader("content-type", "text/plain").withOrderingKey("customer-" + (i % 3))));
    }
    try (RabbitMqPublisher publisher = RabbitMqPublisher.builder(broker()).exchange(exchange).build()) {
      OutboxDrain drain = drain(publisher);
      for (int round = 0; round < 10 && drain.pollOnce() > 0; round++) {
        runUntilQuiet();
      }
    }

    List<GetResponse> received = consumeAll();
    assertThat(received).hasSize(20);
    for (OutboxEntry entry : appended) {
      GetResponse message = received.stream()
          .filter(candidate -> entry.id().value().equals(candidate.getProps().getMessageId())).findFirst().orElseThrow();
      assertThat(message.getBody()).isEqualTo(entry.message().payload());
      assertThat(message.getEnvelope().getRoutingKey()).isEqualTo("orders.placed");
      assertThat(message.getProps().getDeliveryMode()).isEqualTo(2);
      assertThat(message.getProps().getContentType()).isEqualTo("text/plain");
      assertThat(message.getProps().getHeaders().get(RabbitMqPublisher.TOKEN_GENERATION)).isEqualTo(1L);
      assertThat(String.valueOf(message.getProps().getHeaders().get(RabbitMqPublisher.ORDERING_KEY)))
          .isEqualTo(entry.message().orderingKey().orElseThrow());
      assertThat(store.find(entry.id()).orElseThrow().status()).isEqualTo(EntryStatus.DELIVERED);
    }
  }

  @Test
  @DisplayName("a message no queue takes is not delivered: the entry waits for a retry with the reason")
  void unroutableMessagesAreRetriedNotDropped() throws Exception {
    OutboxEntry entry = store.append(OutboxMessage.of("nobody.listens", new byte[] {1}));
    try (RabbitMqPublisher publisher = RabbitMqPublisher.builder(broker()).exchange(exchange).build()) {
      drain(publisher).pollOnce();
      runUntilQuiet();
    }

    OutboxEntry stored = store.find(entry.id()).orElseThrow();
    assertThat(stored.status()).isEqualTo(EntryStatus.FAILED);
    assertThat(stored.lastError().orElseThrow()).contains("no queue is bound");
  }

  @Test
  @DisplayName("with the connection cut mid-run, every entry still reaches the queue, in append order per key")
  void aCutConnectionLosesNothingAndKeepsEachKeysOrder() throws Exception {
    adminChannel.queueBind(queue, exchange, "#");
    String[] broker = HOST.split(":");
    List<String> appendOrder = new ArrayList<>();
    try (FaultProxy proxy = FaultProxy.start(broker[0], Integer.parseInt(broker[1]));
        RabbitMqPublisher publisher = RabbitMqPublisher.builder(factory(proxy.host(), proxy.port()))
            .exchange(exchange).build()) {
      OutboxDrain drain = drain(publisher);
      appendKeyed(0, 15, appendOrder);
      drain.pollOnce();
      runUntilQuiet();
      proxy.cutAllConnections();
      appendKeyed(15, 30, appendOrder);
      for (int round = 0; round < 60 && !allDelivered(appendOrder); round++) {
        drain.pollOnce();
        runUntilQuiet();
        clock.advance(Duration.ofMinutes(10));
      }
    }

    assertThat(allDelivered(appendOrder)).as("every entry delivered after the cut").isTrue();
    List<GetResponse> arrived = consumeAll();
    assertThat(arrived.stream().map(message -> message.getProps().getMessageId()).collect(Collectors.toSet()))
        .as("message ids that reached the queue").containsAll(appendOrder);
    for (String key : List.of("customer-0", "customer-1", "customer-2")) {
      List<Integer> positions = arrived.stream()
          .filter(message -> key.equals(String.valueOf(message.getProps().getHeaders().get(RabbitMqPublisher.ORDERING_KEY))))
          .map(message -> appendOrder.indexOf(message.getProps().getMessageId())).toList();
      assertThat(positions).as("append positions of " + key + " in arrival order (a repeat after the cut may"
          + " follow itself, never a later entry)").isSortedAccordingTo(Integer::compare);
    }
  }

  private void appendKeyed(int from, int to, List<String> appendOrder) {
    for (int i = from; i < to; i++) {
      appendOrder.add(store.append(OutboxMessage.of("orders", new byte[] {(byte) i})
          .withOrderingKey("customer-" + (i % 3))).id().value());
    }
  }

  private boolean allDelivered(List<String> ids) {
    return ids.stream().allMatch(id -> store.find(EntryId.of(id)).orElseThrow().status()
        == EntryStatus.DELIVERED);
  }
}
