package io.claimedoutbox.adapter.mongodb;

import com.mongodb.client.MongoClient;
import io.claimedoutbox.adapter.mongodb.testkit.MongoTestKit;

/** One test kit for the whole test run, over the MongoDB the tests find ({@link MongoTestBackend}). */
final class MongoFixtures {

  static final String DATABASE = "outbox_conformance";
  static final String COLLECTION = "outbox_entries";

  private static MongoFixtures shared;

  final MongoTestBackend backend;
  final MongoClient client;
  final MongoTestKit kit;

  private MongoFixtures(MongoTestBackend backend) {
    this.backend = backend;
    this.client = backend.newClient();
    this.kit = MongoTestKit.create(client, DATABASE, COLLECTION, "MongoDB adapter on " + backend.kind.description);
    System.out.println("Conformance backend: MongoDB adapter on " + backend.kind.description
        + " at " + backend.connectionString);
  }

  static synchronized MongoFixtures shared() {
    if (shared == null) {
      shared = new MongoFixtures(MongoTestBackend.find());
    }
    return shared;
  }
}
