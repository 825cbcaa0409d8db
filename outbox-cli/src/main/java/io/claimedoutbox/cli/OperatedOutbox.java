package io.claimedoutbox.cli;

import com.mongodb.client.MongoClient;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import io.claimedoutbox.adapter.redis.RedisKeys;
import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.port.OutboxOperations;
import jakarta.persistence.EntityManagerFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The operations subcommands' way into an existing outbox: the URL of its server and where the
 * outbox lives there (the JDBC URL's database and schema, a Redis key prefix and shard count, a
 * MongoDB database and collection). Unlike the race and benchmark backends, it creates and drops
 * nothing. Times are the server's ({@code storeTime()}), so ages do not depend on this machine's clock.
 */
final class OperatedOutbox {

  @Option(names = "--url", required = true, description = "The outbox's server: jdbc:postgresql://…, jdbc:mariadb://…,"
      + " redis://…, mongodb://… (the JDBC URL names the database; add ?currentSchema=… for another schema).")
  String url;

  @Option(names = "--key-prefix", defaultValue = "outbox", description = "Redis: the store's key prefix (default: ${DEFAULT-VALUE}).")
  String keyPrefix;

  @Option(names = "--shards", defaultValue = "1", description = "Redis: the store's shard count (default: ${DEFAULT-VALUE}).")
  int shards;

  @Option(names = "--database", defaultValue = "outbox", description = "MongoDB: the database (default: ${DEFAULT-VALUE}).")
  String database;

  @Option(names = "--collection", defaultValue = "outbox_entries",
      description = "MongoDB: the collection (default: ${DEFAULT-VALUE}).")
  String collection;

  /** An open outbox and what to release after. */
  record Session(OutboxOperations operations, Runnable release) implements AutoCloseable {
    @Override
    public void close() {
      release.run();
    }
  }

  Session open() {
    Backends.checkAddress(url);
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:postgresql://") || lower.startsWith("jdbc:mariadb://") || lower.startsWith("jdbc:mysql://")) {
      return jdbc();
    }
    if (lower.startsWith("redis://") || lower.startsWith("rediss://")) {
      return redis();
    }
    if (lower.startsWith("mongodb://") || lower.startsWith("mongodb+srv://")) {
      return mongo();
    }
    throw new UsageException("unknown outbox URL '" + url + "'; use jdbc:postgresql://…, jdbc:mariadb://…, redis://… or mongodb://…");
  }

  private Session jdbc() {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(2);
    config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    // one attempt at start, so a refused connection or a missing database is reported at once, with its reason
    config.setInitializationFailTimeout(1);
    config.setConnectionTimeout(10_000);
    HikariDataSource dataSource;
    try {
      dataSource = new HikariDataSource(config);
    } catch (RuntimeException failure) {
      throw JdbcFailures.opening("the database", url, failure);
    }
    try {
      requireOutboxTable(dataSource);
      EntityManagerFactory factory = JpaOutbox.entityManagerFactory(dataSource, Map.of());
      JpaOutboxStore store = JpaOutboxStore.builder(factory).storeTime().build();
      return new Session(store, () -> {
        factory.close();
        dataSource.close();
      });
    } catch (RuntimeException failure) {
      dataSource.close();
      if (failure instanceof UsageException || failure instanceof NoOutboxHereException) {
        throw failure;
      }
      throw UnreachableBackendException.at("the database", url, failure);
    }
  }

  /** A database without the table: say so, and how to create it, instead of the driver's "relation does not exist". */
  private void requireOutboxTable(HikariDataSource dataSource) {
    try (Connection connection = dataSource.getConnection(); Statement probe = connection.createStatement()) {
      probe.executeQuery("SELECT id FROM outbox_entry WHERE 1 = 0").close();
    } catch (SQLException failure) {
      if (JdbcFailures.isMissingTable(failure)) {
        throw new NoOutboxHereException("no outbox table here: " + url + " has no table outbox_entry (name its schema"
            + " with ?currentSchema=…, or create the table: OutboxSchema.create, the starter's migrations, or the"
            + " SQL files in adapter-jpa's io/claimedoutbox/adapter/jpa/schema/)");
      }
      throw UnreachableBackendException.at("the database", url, failure);
    }
  }

  private Session redis() {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException malformed) {
      throw new UsageException("malformed Redis URL '" + url + "': " + malformed.getMessage());
    }
    JedisPooled redis = new JedisPooled(uri);
    try {
      redis.ping();
      requireOutboxKeys(redis);
      RedisOutboxStore store = RedisOutboxStore.builder(redis).keyPrefix(keyPrefix).shards(shards).storeTime().build();
      return new Session(store, redis::close);
    } catch (IllegalArgumentException badSetting) {
      redis.close();
      throw new UsageException(badSetting.getMessage());
    } catch (NoOutboxHereException nothingThere) {
      redis.close();
      throw nothingThere;
    } catch (RuntimeException unreachable) {
      redis.close();
      throw UnreachableBackendException.at("Redis", url, unreachable);
    }
  }

  /**
   * Every key of the store carries the prefix's hash tag; none at all means the prefix (or the
   * server) is not the outbox's. Scans only until the first key of it.
   */
  private void requireOutboxKeys(JedisPooled redis) {
    new RedisKeys(keyPrefix, shards);
    ScanParams params = new ScanParams().match("{" + keyPrefix + ":*").count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> page = redis.scan(cursor, params);
      if (!page.getResult().isEmpty()) {
        return;
      }
      cursor = page.getCursor();
    } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
    throw new NoOutboxHereException("no outbox under key prefix '" + keyPrefix + "' on " + url + ": no key of it exists"
        + " (check --key-prefix; an outbox nothing was ever appended to has no keys either)");
  }

  private Session mongo() {
    MongoClient client = MongoBackend.client(url);
    try {
      MongoBackend.ping(client, url);
      if (!client.getDatabase(database).listCollectionNames().into(new ArrayList<>()).contains(collection)) {
        throw new NoOutboxHereException("no outbox here: " + url + " has no collection " + collection + " in database "
            + database + " (check --database and --collection)");
      }
      MongoOutboxStore store = MongoOutboxStore.builder(client).databaseName(database).collectionName(collection)
          .storeTime().build();
      return new Session(store, client::close);
    } catch (IllegalArgumentException badSetting) {
      client.close();
      throw new UsageException(badSetting.getMessage());
    } catch (RuntimeException failure) {
      client.close();
      throw failure;
    }
  }
}
