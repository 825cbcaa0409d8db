package io.claimedoutbox.cli;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.claimedoutbox.adapter.mongodb.testkit.MongoTestKit;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/**
 * Opens the MongoDB adapter through its test kit, in database {@code outbox_cli}, in a collection
 * of its own that is dropped at the end.
 */
final class MongoBackend {

  private MongoBackend() {}

  static BackendSession open(String url, Clock clock) {
    ConnectionString connection;
    try {
      connection = new ConnectionString(url);
    } catch (IllegalArgumentException malformed) {
      throw new UsageException("malformed MongoDB URL '" + url + "': " + malformed.getMessage());
    }
    MongoClient client = MongoClients.create(MongoClientSettings.builder()
        .applyConnectionString(connection)
        .applyToClusterSettings(cluster -> cluster.serverSelectionTimeout(3, TimeUnit.SECONDS))
        .build());
    String label;
    try {
      Document build = client.getDatabase("admin").runCommand(new Document("buildInfo", 1));
      label = "MongoDB " + build.getString("version") + " (findOneAndUpdate)";
    } catch (RuntimeException unreachable) {
      client.close();
      throw UnreachableBackendException.at("MongoDB", url, unreachable);
    }
    String collection = "entries_" + UUID.randomUUID().toString().substring(0, 8);
    MongoTestKit kit = MongoTestKit.create(client, Backends.NAMESPACE, collection, label);
    return new BackendSession(label, kit.storeBuilder().clock(clock).build(), kit.fixture(), kit::rawCompareAndSet,
        () -> {
          kit.drop();
          client.close();
        });
  }
}
