package io.claimedoutbox.adapter.mongodb.testkit;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawCompareAndSet;
import org.bson.Document;

/**
 * The MongoDB adapter's test kit: everything a test, a benchmark or the {@code outbox} program
 * needs to run the adapter over a server it is given. Built from a configured {@link MongoClient}
 * (the caller owns it, with its pool, credentials and TLS) and a namespace — a database and a
 * collection the kit may empty and drop.
 */
public final class MongoTestKit {

  private final MongoClient client;
  private final String database;
  private final String collection;
  private final OutboxStoreFixture fixture;

  private MongoTestKit(MongoClient client, String database, String collection, String backendName) {
    this.client = client;
    this.database = database;
    this.collection = collection;
    collection().deleteMany(new Document());
    storeBuilder().build().createIndexes();
    this.fixture = new MongoStoreFixture(this, backendName);
  }

  /**
   * Empties the collection and creates the adapter's indexes on it.
   *
   * @param client a configured client; stays the caller's
   * @param database the database to work in
   * @param collection the collection the kit owns
   * @param backendName how reports name the backend, for example {@code MongoDB 7.0 (findOneAndUpdate)}
   * @return the kit
   */
  public static MongoTestKit create(MongoClient client, String database, String collection, String backendName) {
    return new MongoTestKit(client, database, collection, backendName);
  }

  /** @return the client the kit was built from */
  public MongoClient client() {
    return client;
  }

  /** @return the kit's collection, read and written with the plain driver */
  public MongoCollection<Document> collection() {
    return client.getDatabase(database).getCollection(collection);
  }

  /** @return a builder for a store over the kit's collection, to set a clock on */
  public MongoOutboxStore.Builder storeBuilder() {
    return MongoOutboxStore.builder(client).databaseName(database).collectionName(collection);
  }

  /**
   * The conformance fixture over the kit's collection: documents read and damaged with the plain
   * driver; its unreachable twin is a client of its own pointed at a port where nothing listens.
   *
   * @return the fixture, the same instance on every call
   */
  public OutboxStoreFixture fixture() {
    return fixture;
  }

  /**
   * The server's own compare-and-set — one {@code findOneAndUpdate} filtered on a counter — in a
   * collection next to the kit's, the floor the adapter's calls are measured against.
   *
   * @param keys how many documents to prepare
   * @return the compare-and-set; closing it drops its collection
   */
  public RawCompareAndSet rawCompareAndSet(int keys) {
    return MongoRawCompareAndSet.prepare(client.getDatabase(database).getCollection(collection + "_raw"), keys);
  }

  /** Drops the kit's collection. */
  public void drop() {
    collection().drop();
  }
}
