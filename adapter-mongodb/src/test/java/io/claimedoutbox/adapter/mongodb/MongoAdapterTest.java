package io.claimedoutbox.adapter.mongodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.mongodb.MongoClientSettings;
import com.mongodb.ServerAddress;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.connection.ServerDescription;
import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FaultProxy;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.util.concurrent.TimeUnit;
import io.claimedoutbox.domain.ClaimTransition;
import java.net.InetSocketAddress;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Duration;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import org.bson.Document;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("MongoDB adapter: configuration, documents, indexes, sessions")
class MongoAdapterTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");

  private final MongoFixtures fixture = MongoFixtures.shared();
  private MongoOutboxStore store;

  @BeforeEach
  void cleanStore() {
    fixture.kit.fixture().clean();
    store = fixture.kit.storeBuilder().build();
  }

  @Test
  @DisplayName("a transition whose answer times out while the server may still run it is unknown, not 'nothing"
      + " written', and the write that lands later carries the stamp the exception names")
  void aTransitionWhoseAnswerTimesOutIsUnknown() {
    behindAProxyWithAShortReadTimeout((proxies, timingOut) -> {
      Claim claim = appendAndClaim(1).get(0);
      proxies.armFor(FaultProxy.Fault.HOLD_REQUEST, claim.entryId().value());
      TransitionOutcomeUnknownException unknown = catchThrowableOfType(TransitionOutcomeUnknownException.class,
          () -> timingOut.tryMarkClaimDelivered(claim, DeliveryReceipt.of("late")));
      proxies.release();
      assertThat(proxies.awaitAnswerDropped(Duration.ofSeconds(10))).as("the server answered the held write").isTrue();
      expectDeliveredWith(claim.entryId(), unknown.sentWriteStamp(claim.entryId()).orElseThrow());
    });
  }

  @Test
  @DisplayName("a batch whose answer times out is unknown for every element, each with the stamp it lands with")
  void aBatchWhoseAnswerTimesOutIsUnknown() {
    behindAProxyWithAShortReadTimeout((proxies, timingOut) -> {
      List<Claim> claims = appendAndClaim(2);
      proxies.armFor(FaultProxy.Fault.HOLD_REQUEST, claims.get(0).entryId().value());
      TransitionOutcomeUnknownException unknown = catchThrowableOfType(TransitionOutcomeUnknownException.class,
          () -> timingOut.tryTransitionAll(claims.stream()
              .map(claim -> new ClaimTransition(claim, DeliveryReceipt.of("late"))).toList()));
      proxies.release();
      assertThat(proxies.awaitAnswerDropped(Duration.ofSeconds(10))).as("the server answered the held write").isTrue();
      for (Claim claim : claims) {
        expectDeliveredWith(claim.entryId(), unknown.sentWriteStamp(claim.entryId()).orElseThrow());
      }
    });
  }

  @FunctionalInterface
  private interface BehindProxy {
    void run(FaultProxies proxies, MongoOutboxStore timingOut);
  }

  /** A store whose client reaches the server through a fault proxy and waits 300 ms for an answer. */
  private void behindAProxyWithAShortReadTimeout(BehindProxy test) {
    List<ServerDescription> servers = fixture.client.getClusterDescription().getServerDescriptions();
    assumeTrue(servers.size() == 1, "needs one server to put the fault proxy in front of; this run has " + servers);
    ServerAddress server = servers.get(0).getAddress();
    try (FaultProxies proxies = new FaultProxies()) {
      InetSocketAddress proxy = proxies.proxyFor(server.getHost(), server.getPort());
      try (MongoClient through = MongoClients.create(MongoClientSettings.builder()
          .applyToClusterSettings(cluster -> cluster.mode(ClusterConnectionMode.SINGLE)
              .hosts(List.of(new ServerAddress(proxy.getHostString(), proxy.getPort()))))
          .applyToSocketSettings(socket -> socket.readTimeout(300, TimeUnit.MILLISECONDS))
          .build())) {
        test.run(proxies, MongoOutboxStore.builder(through).databaseName(MongoFixtures.DATABASE)
            .collectionName(MongoFixtures.COLLECTION).build());
      }
    }
  }

  private List<Claim> appendAndClaim(int count) {
    for (int i = 0; i < count; i++) {
      store.append(OutboxMessage.of("orders", new byte[] {(byte) i}));
    }
    return store.claimDue(WorkerId.of("alice"), count, Duration.ofMinutes(5));
  }

  /** The held write reached the server after its client gave up, and it was the one the exception named. */
  private void expectDeliveredWith(EntryId id, WriteStamp sent) {
    OutboxEntry landed = store.find(id).orElseThrow();
    assertThat(landed.status()).as("the held delivery reached the server after the client gave up")
        .isEqualTo(EntryStatus.DELIVERED);
    assertThat(landed.lastWriteStamp()).contains(sent);
  }

  @Test
  void namesAreValidatedBeforeAnyConnection() {
    MongoOutboxStore.Builder builder = MongoOutboxStore.builder(fixture.client);
    assertThatThrownBy(() -> builder.databaseName("my.db")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("databaseName");
    assertThatThrownBy(() -> builder.databaseName(" ")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("databaseName");
    assertThatThrownBy(() -> builder.collectionName("a$b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("collectionName");
    assertThatThrownBy(() -> builder.collectionName("system.users")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("collectionName");
    assertThatThrownBy(() -> MongoOutboxStore.builder(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("client");
    assertThatThrownBy(() -> builder.writeConcern(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("writeConcern");
  }

  @Test
  void createIndexesBuildsThePartialDueAndKeyOrderIndexes() {
    store.createIndexes();
    MongoCollection<Document> raw = fixture.client.getDatabase(MongoFixtures.DATABASE)
        .getCollection(MongoFixtures.COLLECTION);
    List<Document> indexes = raw.listIndexes().into(new java.util.ArrayList<>());
    Document due = indexes.stream().filter(index -> MongoOutboxStore.DUE_INDEX.equals(index.getString("name")))
        .findFirst().orElseThrow();
    assertThat(due.get("key", Document.class).keySet()).containsExactly("dueAt", "_id");
    assertThat(indexes).hasSize(5);
    Document keyOrder = indexes.stream().filter(index -> MongoOutboxStore.KEY_ORDER_INDEX.equals(index.getString("name")))
        .findFirst().orElseThrow();
    assertThat(keyOrder.get("key", Document.class).keySet()).containsExactly("orderingKey", "createdAt", "_id");
    assertThat(due.get("partialFilterExpression", Document.class))
        .isEqualTo(new Document("dueAt", new Document("$exists", true)));
    Document finished = indexes.stream().filter(index -> MongoOutboxStore.FINISHED_INDEX.equals(index.getString("name")))
        .findFirst().orElseThrow();
    assertThat(finished.get("partialFilterExpression", Document.class))
        .isEqualTo(new Document("finishedAt", new Document("$exists", true)));
    Document deadLetters = indexes.stream()
        .filter(index -> MongoOutboxStore.DEAD_LETTER_INDEX.equals(index.getString("name"))).findFirst().orElseThrow();
    assertThat(deadLetters.get("key", Document.class).keySet()).containsExactlyInAnyOrder("status", "_id");
    assertThat(deadLetters.get("partialFilterExpression", Document.class))
        .isEqualTo(new Document("status", "DEAD_LETTERED"));
  }

  @Test
  @DisplayName("an append that fails part way reports the entries inserted before the failure committed and the"
      + " rest not, so a drain that took them on append is handed the written ones and keeps no room for the others")
  void anAppendFailingPartWayReportsWhatWasWritten() {
    MongoCollection<Document> raw = fixture.client.getDatabase(MongoFixtures.DATABASE)
        .getCollection(MongoFixtures.COLLECTION);
    raw.createIndex(Indexes.ascending(EntryFields.TOPIC), new IndexOptions().unique(true).name("test_unique_topic"));
    List<List<OutboxEntry>> committed = new CopyOnWriteArrayList<>();
    List<OutboxEntry> notCommitted = new CopyOnWriteArrayList<>();
    CommitNotifications.Listener takesEverything = new CommitNotifications.Listener() {
      @Override
      public void entriesCommitted(List<OutboxEntry> appended) {
        committed.add(appended);
      }

      @Override
      public Optional<CommitNotifications.ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
        return Optional.of(new CommitNotifications.ClaimOnAppend(WorkerId.of("drain"), Duration.ofSeconds(30)));
      }

      @Override
      public void notCommitted(OutboxEntry written) {
        notCommitted.add(written);
      }
    };
    try (CommitNotifications.Subscription subscription = store.commitNotifications().subscribe(takesEverything)) {
      assertThatThrownBy(() -> store.appendAll(List.of(OutboxMessage.of("a", new byte[] {1}),
          OutboxMessage.of("b", new byte[] {2}), OutboxMessage.of("a", new byte[] {3}))))
          .isInstanceOf(OutboxStoreException.class);
    } finally {
      raw.dropIndex("test_unique_topic");
    }

    assertThat(committed).hasSize(1);
    assertThat(committed.get(0)).extracting(entry -> entry.message().topic()).containsExactly("a", "b");
    assertThat(committed.get(0)).allSatisfy(entry -> assertThat(entry.currentClaim()).as("claimed on append").isPresent());
    assertThat(notCommitted).extracting(entry -> entry.message().payload()[0]).containsExactly((byte) 3);
    assertThat(raw.countDocuments()).isEqualTo(2);
  }

  @Test
  void terminalDocumentsHaveNoDueTime() {
    store.append(OutboxMessage.of("t", new byte[] {1}));
    var claim = store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(5)).get(0);
    store.tryMarkClaimDelivered(claim, io.claimedoutbox.domain.DeliveryReceipt.none());
    Document raw = fixture.client.getDatabase(MongoFixtures.DATABASE)
        .getCollection(MongoFixtures.COLLECTION).find().first();
    assertThat(raw).doesNotContainKeys("dueAt", "owner", "tokenNonce", "leaseUntil");
    assertThat(raw.getDate("finishedAt")).isEqualTo(raw.getDate("updatedAt"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"missing topic", "revision as text", "unknown status", "header without value",
      "owner without token"})
  void damagedDocumentsNameTheEntry(String damage) {
    OutboxEntry entry = OutboxEntry.appended(EntryId.of("entry-9"),
            OutboxMessage.of("t", new byte[] {1}).withHeader("a.b$c", "v"), NOW, WriteStamp.fresh())
        .claimedBy(WorkerId.of("w"), NOW, Duration.ofSeconds(5), WriteStamp.fresh());
    Document document = EntryDocuments.toDocument(entry);
    assertThat(EntryDocuments.toEntry(document)).isEqualTo(entry);
    Consumer<Document> damageIt = switch (damage) {
      case "missing topic" -> d -> d.remove("topic");
      case "revision as text" -> d -> d.put("revision", "7");
      case "unknown status" -> d -> d.put("status", "SHIPPED");
      case "header without value" -> d -> d.put("headers", List.of(new Document("name", "x")));
      default -> d -> d.remove("tokenNonce");
    };
    damageIt.accept(document);

    assertThatThrownBy(() -> EntryDocuments.toEntry(document))
        .isInstanceOfSatisfying(UndecodableEntryException.class,
            thrown -> assertThat(thrown.entryId()).isEqualTo(EntryId.of("entry-9")))
        .hasMessageContaining("entry-9");
  }

  @Test
  void appendThroughWritesThroughTheGivenHandleAndRefusesAnotherDatabase() {
    MongoDatabase database = fixture.client.getDatabase(MongoFixtures.DATABASE);
    List<OutboxEntry> appended = store.appendThrough(database, List.of(OutboxMessage.of("t", new byte[] {7})));
    assertThat(store.find(appended.get(0).id())).contains(appended.get(0));
    assertThatThrownBy(() -> store.appendThrough(fixture.client.getDatabase("elsewhere"),
        List.of(OutboxMessage.of("t", new byte[] {8})))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("database must be " + MongoFixtures.DATABASE);
  }

  @Test
  @DisplayName("appends join the caller's transaction (real MongoDB replica sets only)")
  void appendsJoinTheCallersTransaction() {
    assumeTrue(fixture.backend.supportsTransactions(fixture.client),
        "multi-document transactions need a replica set; this run uses " + fixture.backend.kind.description);
    try (ClientSession session = fixture.client.startSession()) {
      session.startTransaction();
      List<OutboxEntry> appended = store.appendAll(session, List.of(OutboxMessage.of("t", new byte[] {1})));
      session.abortTransaction();
      assertThat(store.find(appended.get(0).id())).isEmpty();
      session.startTransaction();
      List<OutboxEntry> committed = store.appendAll(session, List.of(OutboxMessage.of("t", new byte[] {2})));
      session.commitTransaction();
      assertThat(store.find(committed.get(0).id())).contains(committed.get(0));
    }
  }
}
