package io.claimedoutbox.cli;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/** The MongoDB adapter, in database {@code outbox_cli}, in a collection of its own that is dropped at the end. */
final class MongoBackend implements BackendSession {

  private final MongoClient client;
  private final String collection = "race_" + UUID.randomUUID().toString().substring(0, 8);
  private final MongoOutboxStore store;
  private final String label;

  private MongoBackend(String url, ConnectionString connection, Clock clock) {
    this.client = MongoClients.create(MongoClientSettings.builder()
        .applyConnectionString(connection)
        .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(3, TimeUnit.SECONDS))
        .build());
    try {
      Document build = client.getDatabase("admin").runCommand(new Document("buildInfo", 1));
      this.label = "MongoDB " + build.getString("version") + " (findOneAndUpdate)";
    } catch (RuntimeException unreachable) {
      client.close();
      throw new UnreachableBackendException("cannot reach MongoDB at " + url + ": "
          + JdbcBackend.rootMessage(unreachable), unreachable);
    }
    this.store = MongoOutboxStore.builder(client).databaseName(JdbcBackend.NAMESPACE).collectionName(collection)
        .clock(clock).build();
    store.createIndexes();
  }

  static MongoBackend open(String url, Clock clock) {
    ConnectionString connection;
    try {
      connection = new ConnectionString(url);
    } catch (IllegalArgumentException malformed) {
      throw new UsageException("malformed MongoDB URL '" + url + "': " + malformed.getMessage());
    }
    return new MongoBackend(url, connection, clock);
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public OutboxStoreFixture conformanceFixture() {
    return new MongoFixture();
  }

  /** Documents read and damaged with the plain driver, in the session's own collection. */
  private final class MongoFixture implements OutboxStoreFixture {
    private final MongoCollection<Document> raw = client.getDatabase(JdbcBackend.NAMESPACE).getCollection(collection);

    @Override
    public String backendName() {
      return label;
    }

    @Override
    public Set<FixtureCapability> capabilities() {
      return Set.of();
    }

    @Override
    public void clean() {
      raw.deleteMany(new Document());
    }

    @Override
    public OutboxClaimOutcomeStore openStore(FixtureContext context) {
      return MongoOutboxStore.builder(client).databaseName(JdbcBackend.NAMESPACE).collectionName(collection)
          .clock(context.clock()).build();
    }

    @Override
    public Optional<RawEntryState> readRaw(EntryId id) {
      Document document = raw.find(Filters.eq("_id", id.value())).first();
      return document == null ? Optional.empty() : Optional.of(new RawEntryState(document.getString("_id"),
          document.getString("status"), document.getString("owner"), ((Number) document.get("claimGeneration")).longValue(),
          ((Number) document.get("revision")).longValue(), document.getString("writeStamp")));
    }

    @Override
    public long countRaw() {
      return raw.countDocuments();
    }

    @Override
    public void corrupt(EntryId id) {
      raw.updateOne(Filters.eq("_id", id.value()), Updates.unset("topic"));
    }
  }

  @Override
  public RawCompareAndSet rawCompareAndSet(int keys) {
    MongoCollection<Document> raw = client.getDatabase(JdbcBackend.NAMESPACE).getCollection(collection + "_raw");
    raw.drop();
    List<Document> documents = new ArrayList<>();
    for (int key = 0; key < keys; key++) {
      documents.add(new Document("_id", key).append("v", 0L));
    }
    raw.insertMany(documents);
    return new RawCompareAndSet() {
      @Override
      public boolean compareAndSet(int key, long expected) {
        return raw.findOneAndUpdate(Filters.and(Filters.eq("_id", key), Filters.eq("v", expected)),
            Updates.inc("v", 1L)) != null;
      }

      @Override
      public void close() {
        raw.drop();
      }
    };
  }

  @Override
  public void close() {
    client.getDatabase(JdbcBackend.NAMESPACE).getCollection(collection).drop();
    client.close();
  }
}
