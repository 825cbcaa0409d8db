package io.claimedoutbox.adapter.mongodb.testkit;

import com.mongodb.MongoClientSettings;
import com.mongodb.ServerAddress;
import com.mongodb.connection.ClusterConnectionMode;
import com.mongodb.connection.ClusterDescription;
import com.mongodb.connection.ClusterType;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import io.claimedoutbox.conformance.BackendFixture;
import io.claimedoutbox.conformance.ClosingStore;
import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.EntryFields;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/** The MongoDB adapter's conformance fixture: the kit's collection read and damaged with the plain driver. */
final class MongoStoreFixture extends BackendFixture {

  private final MongoTestKit kit;

  MongoStoreFixture(MongoTestKit kit, String backendName) {
    super(backendName, singleServer(kit).isPresent()
        ? Set.of(FixtureCapability.UNREACHABLE_BACKEND, FixtureCapability.FAULT_PROXY, FixtureCapability.STORE_TIME)
        : Set.of(FixtureCapability.UNREACHABLE_BACKEND, FixtureCapability.STORE_TIME));
    this.kit = kit;
  }

  @Override
  public void clean() {
    kit.collection().deleteMany(new Document());
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return kit.storeBuilder().clock(context.clock()).build();
  }

  @Override
  public OutboxClaimOutcomeStore openStoreOnStoreTime(FixtureContext context) {
    return kit.storeBuilder().clock(context.clock()).storeTime().build();
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    Document document = kit.collection().find(Filters.eq("_id", id.value())).first();
    if (document == null) {
      return Optional.empty();
    }
    return Optional.of(new RawEntryState(document.getString("_id"), document.getString(EntryFields.STATUS),
        document.getString(EntryFields.OWNER), ((Number) document.get(EntryFields.CLAIM_GENERATION)).longValue(),
        ((Number) document.get(EntryFields.REVISION)).longValue(), document.getString(EntryFields.WRITE_STAMP)));
  }

  @Override
  public long countRaw() {
    return kit.collection().countDocuments();
  }

  @Override
  public void corrupt(EntryId id) {
    kit.collection().updateOne(Filters.eq("_id", id.value()), Updates.unset(EntryFields.TOPIC));
  }

  /** The server of a single-server deployment (a replica set would need a proxy per member). */
  private static Optional<ServerAddress> singleServer(MongoTestKit kit) {
    ClusterDescription cluster = kit.client().getClusterDescription();
    if (cluster.getType() != ClusterType.STANDALONE || cluster.getServerDescriptions().size() != 1) {
      return Optional.empty();
    }
    return Optional.of(cluster.getServerDescriptions().get(0).getAddress());
  }

  /** A client of its own, connected straight to the suite's proxy in front of the server. */
  @Override
  public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
    ServerAddress server = singleServer(kit).orElseThrow();
    InetSocketAddress proxy = proxies.proxyFor(server.getHost(), server.getPort());
    MongoClient through = MongoClients.create(MongoClientSettings.builder()
        .applyToClusterSettings(cluster -> cluster
            .hosts(List.of(new ServerAddress(proxy.getHostString(), proxy.getPort())))
            .mode(ClusterConnectionMode.SINGLE)
            .serverSelectionTimeout(5, TimeUnit.SECONDS))
        .applyToSocketSettings(socket -> socket.connectTimeout(2, TimeUnit.SECONDS).readTimeout(10, TimeUnit.SECONDS))
        .build());
    MongoOutboxStore store = MongoOutboxStore.builder(through)
        .databaseName(kit.collection().getNamespace().getDatabaseName())
        .collectionName(kit.collection().getNamespace().getCollectionName())
        .clock(context.clock())
        .build();
    return new ClosingStore(store, through::close);
  }

  @Override
  public Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    MongoClient dead = MongoClients.create(MongoClientSettings.builder()
        .applyToClusterSettings(cluster -> cluster
            .hosts(List.of(new ServerAddress("127.0.0.1", 1)))
            .serverSelectionTimeout(250, TimeUnit.MILLISECONDS))
        .build());
    MongoOutboxStore store = MongoOutboxStore.builder(dead)
        .databaseName(kit.collection().getNamespace().getDatabaseName())
        .collectionName(kit.collection().getNamespace().getCollectionName())
        .clock(context.clock())
        .build();
    return Optional.of(new ClosingStore(store, dead::close));
  }
}
