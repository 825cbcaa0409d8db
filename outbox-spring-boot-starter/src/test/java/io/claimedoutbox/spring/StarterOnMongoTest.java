package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.drain.OutboxMessageHandler;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.bson.Document;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.mongodb.MongoDatabaseFactory;
import org.springframework.data.mongodb.MongoTransactionManager;
import org.springframework.data.mongodb.core.SimpleMongoClientDatabaseFactory;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The starter on MongoDB: on the in-process wire-protocol stand-in (no MongoDB server on this
 * machine), and, where {@code OUTBOX_MONGODB_URI} names a replica set, appends in a Spring Data
 * MongoDB transaction.
 */
@DisplayName("Spring Boot starter on MongoDB: the store bean and the drain; appends in a Spring Data transaction")
class StarterOnMongoTest {

  private static ApplicationContextRunner runner(MongoClient client, String database) {
    return new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(ClaimedOutboxAutoConfiguration.class))
        .withPropertyValues("claimed-outbox.backend=mongodb", "claimed-outbox.mongodb.database=" + database,
            "claimed-outbox.retention.enabled=false")
        .withBean(MongoClient.class, () -> client)
        .withBean(MongoDatabaseFactory.class, () -> new SimpleMongoClientDatabaseFactory(client, database));
  }

  @Test
  void onTheStandInTheStoreAppendsAndTheDrainDelivers() throws Exception {
    MongoServer server = new MongoServer(new MemoryBackend());
    InetSocketAddress address = server.bind();
    System.out.println("Starter on MongoDB: the in-process mongo-java-server stand-in (not a real MongoDB) at " + address);
    CountDownLatch delivered = new CountDownLatch(1);
    try (MongoClient client = MongoClients.create("mongodb://" + address.getHostString() + ":" + address.getPort())) {
      runner(client, "outbox_starter").withBean(OutboxMessageHandler.class, () -> message -> delivered.countDown())
          .run(context -> {
            assertThat(context).hasNotFailed();
            ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
            store.append(OutboxMessage.of("orders", new byte[] {1}));
            assertThat(delivered.await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
            assertThat(context.getBean(OutboxBackend.class).name()).isEqualTo("mongodb");
          });
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  @DisplayName("appends join a Spring Data MongoDB transaction (real MongoDB replica sets only)")
  void appendsJoinASpringDataTransaction() {
    Optional<String> uri = Optional.ofNullable(System.getenv("OUTBOX_MONGODB_URI"));
    assumeTrue(uri.isPresent(), "transactions need a real MongoDB replica set: set OUTBOX_MONGODB_URI (this machine has"
        + " none; the stand-in has no transactions)");
    String database = "outbox_starter_" + UUID.randomUUID().toString().substring(0, 8);
    try (MongoClient client = MongoClients.create(uri.get())) {
      Document hello = client.getDatabase("admin").runCommand(new Document("hello", 1));
      assumeTrue(hello.containsKey("setName"), "transactions need a replica set; " + uri.get() + " is a single server");
      runner(client, database).withPropertyValues("claimed-outbox.drain.enabled=false").run(context -> {
        ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);
        TransactionTemplate transactions =
            new TransactionTemplate(new MongoTransactionManager(context.getBean(MongoDatabaseFactory.class)));
        OutboxEntry[] rolledBack = new OutboxEntry[1];
        transactions.executeWithoutResult(status -> {
          rolledBack[0] = store.append(OutboxMessage.of("orders", new byte[] {1}));
          status.setRollbackOnly();
        });
        assertThat(store.find(rolledBack[0].id())).as("an append in a rolled-back transaction").isEmpty();
        List<OutboxEntry> committed = transactions.execute(status -> store.appendAll(
            List.of(OutboxMessage.of("orders", new byte[] {2}))));
        assertThat(store.find(committed.get(0).id())).isPresent();
      });
      client.getDatabase(database).drop();
    }
  }
}
