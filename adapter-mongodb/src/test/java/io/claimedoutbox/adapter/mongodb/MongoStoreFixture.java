package io.claimedoutbox.adapter.mongodb;

import static com.mongodb.client.model.Filters.eq;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.MongoClientSettings;
import com.mongodb.ServerAddress;
import io.claimedoutbox.conformance.ClosingStore;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/** The conformance fixture for the MongoDB adapter; raw reads go through the plain driver. */
final class MongoStoreFixture implements OutboxStoreFixture {

  static final String DATABASE = "outbox_conformance";
  static final String COLLECTION = "outbox_entries";

  private static MongoStoreFixture shared;

  final MongoTestBackend backend;
  final MongoClient client;
  private final MongoCollection<Document> raw;

  private MongoStoreFixture(MongoTestBackend backend) {
    this.backend = backend;
    this.client = backend.newClient();
    this.raw = client.getDatabase(DATABASE).getCollection(COLLECTION);
    raw.deleteMany(new Document());
    MongoOutboxStore.builder(client).databaseName(DATABASE).collectionName(COLLECTION).build().createIndexes();
    System.out.println("Conformance backend: MongoDB adapter on " + backend.kind.description
        + " at " + backend.connectionString);
  }

  static synchronized MongoStoreFixture shared() {
    if (shared == null) {
      shared = new MongoStoreFixture(MongoTestBackend.find());
    }
    return shared;
  }

  @Override
  public String backendName() {
    return "MongoDB adapter on " + backend.kind.description;
  }

  @Override
  public Set<FixtureCapability> capabilities() {
    return EnumSet.of(FixtureCapability.UNREACHABLE_BACKEND);
  }

  @Override
  public void clean() {
    raw.deleteMany(new Document());
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return MongoOutboxStore.builder(client)
        .databaseName(DATABASE)
        .collectionName(COLLECTION)
        .clock(context.clock())
        .build();
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    Document document = raw.find(eq("_id", id.value())).first();
    if (document == null) {
      return Optional.empty();
    }
    return Optional.of(new RawEntryState(document.getString("_id"), document.getString("status"),
        document.getString("owner"), ((Number) document.get("claimGeneration")).longValue(),
        ((Number) document.get("revision")).longValue(), document.getString("writeStamp")));
  }

  @Override
  public long countRaw() {
    return raw.countDocuments();
  }

  @Override
  public void corrupt(EntryId id) {
    raw.updateOne(eq("_id", id.value()), new Document("$unset", new Document("topic", "")));
  }

  @Override
  public Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    MongoClient dead = MongoClients.create(MongoClientSettings.builder()
        .applyToClusterSettings(cluster -> cluster
            .hosts(List.of(new ServerAddress("127.0.0.1", 1)))
            .serverSelectionTimeout(250, TimeUnit.MILLISECONDS))
        .build());
    MongoOutboxStore store = MongoOutboxStore.builder(dead)
        .databaseName(DATABASE)
        .collectionName(COLLECTION)
        .clock(context.clock())
        .build();
    return Optional.of(new ClosingStore(store, dead::close));
  }
}
