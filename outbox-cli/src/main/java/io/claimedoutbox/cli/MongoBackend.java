package io.claimedoutbox.cli;

import com.mongodb.ConnectionString;
import com.mongodb.MongoClientSettings;
import com.mongodb.MongoTimeoutException;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import io.claimedoutbox.adapter.mongodb.testkit.MongoTestKit;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bson.Document;

/**
 * Opens the MongoDB adapter through its test kit, in database {@code outbox_cli}, in a collection
 * of its own that is dropped at the end.
 */
final class MongoBackend {

  /** The innermost "caused by {…: reason}" of the driver's cluster description. */
  private static final Pattern CAUSE = Pattern.compile("caused by \\{[\\w.$]+: ([^}]*)}");

  private MongoBackend() {}

  static BackendSession open(String url, Clock clock) {
    MongoClient client = client(url);
    String label;
    try {
      Document build = client.getDatabase("admin").runCommand(new Document("buildInfo", 1));
      label = "MongoDB " + build.getString("version") + " (findOneAndUpdate)";
    } catch (RuntimeException unreachable) {
      client.close();
      throw unreachable(url, unreachable);
    }
    String collection = "entries_" + UUID.randomUUID().toString().substring(0, 8);
    MongoTestKit kit = MongoTestKit.create(client, Backends.NAMESPACE, collection, label);
    return new BackendSession(label, kit.storeBuilder().clock(clock).build(), kit.fixture(), kit::rawCompareAndSet,
        () -> {
          kit.drop();
          client.close();
        });
  }

  /**
   * A client that gives up choosing a server after 3 seconds (unless the URL says otherwise), so an
   * unreachable server is reported promptly.
   */
  static MongoClient client(String url) {
    ConnectionString connection;
    try {
      connection = new ConnectionString(url);
    } catch (IllegalArgumentException malformed) {
      throw new UsageException("malformed MongoDB URL '" + url + "': " + malformed.getMessage());
    }
    return MongoClients.create(MongoClientSettings.builder()
        .applyConnectionString(connection)
        .applyToClusterSettings(cluster -> {
          if (connection.getServerSelectionTimeout() == null) {
            cluster.serverSelectionTimeout(3, TimeUnit.SECONDS);
          }
        })
        .build());
  }

  /** One round trip to the server; an unreachable one is one line with the driver's reason, not its cluster view. */
  static void ping(MongoClient client, String url) {
    try {
      client.getDatabase("admin").runCommand(new Document("ping", 1));
    } catch (RuntimeException unreachable) {
      throw unreachable(url, unreachable);
    }
  }

  private static RuntimeException unreachable(String url, RuntimeException failure) {
    if (failure instanceof MongoTimeoutException timeout) {
      Matcher cause = CAUSE.matcher(String.valueOf(timeout.getMessage()));
      String reason = "no server answered in time";
      while (cause.find()) {
        reason = cause.group(1).strip();
      }
      return UnreachableBackendException.withReason("MongoDB", url, reason, timeout);
    }
    return UnreachableBackendException.at("MongoDB", url, failure);
  }
}
