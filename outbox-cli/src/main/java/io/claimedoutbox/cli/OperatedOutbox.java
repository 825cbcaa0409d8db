package io.claimedoutbox.cli;

import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoClients;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.port.OutboxOperations;
import jakarta.persistence.EntityManagerFactory;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;
import redis.clients.jedis.JedisPooled;

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
    config.setInitializationFailTimeout(-1);
    HikariDataSource dataSource = new HikariDataSource(config);
    try {
      EntityManagerFactory factory = JpaOutbox.entityManagerFactory(dataSource, Map.of());
      JpaOutboxStore store = JpaOutboxStore.builder(factory).storeTime().build();
      return new Session(store, () -> {
        factory.close();
        dataSource.close();
      });
    } catch (RuntimeException unreachable) {
      dataSource.close();
      throw UnreachableBackendException.at("the database", url, unreachable);
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
      RedisOutboxStore store = RedisOutboxStore.builder(redis).keyPrefix(keyPrefix).shards(shards).storeTime().build();
      return new Session(store, redis::close);
    } catch (IllegalArgumentException badSetting) {
      redis.close();
      throw new UsageException(badSetting.getMessage());
    } catch (RuntimeException unreachable) {
      redis.close();
      throw UnreachableBackendException.at("Redis", url, unreachable);
    }
  }

  private Session mongo() {
    MongoClient client = MongoClients.create(url);
    try {
      MongoOutboxStore store = MongoOutboxStore.builder(client).databaseName(database).collectionName(collection)
          .storeTime().build();
      return new Session(store, client::close);
    } catch (IllegalArgumentException badSetting) {
      client.close();
      throw new UsageException(badSetting.getMessage());
    }
  }
}
