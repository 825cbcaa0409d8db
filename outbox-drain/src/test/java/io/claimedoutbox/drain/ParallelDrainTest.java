package io.claimedoutbox.drain;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.conformance.TransitionWriteHook;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

@DisplayName("Four drains in parallel over 10,000 entries: every entry finished, each write attributed once")
class ParallelDrainTest {

  private static final int DRAINS = 4;
  private static final int ENTRIES = 10_000;

  @Test
  @DisplayName("on the in-memory reference store")
  void inMemory() throws InterruptedException {
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    ParallelDrainRun.run("in-memory", new InMemoryOutboxStore(clock, TransitionWriteHook.NONE), clock, DRAINS, ENTRIES);
  }

  @Test
  @DisplayName("on PostgreSQL through the JPA adapter")
  void postgresql() throws Exception {
    String base = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
        .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
    runOnJdbc("PostgreSQL", base, base + (base.contains("?") ? "&" : "?") + "currentSchema=outbox_drain",
        "DROP SCHEMA IF EXISTS outbox_drain CASCADE", "CREATE SCHEMA outbox_drain", OutboxDatabase.POSTGRESQL,
        "OUTBOX_POSTGRESQL_URL");
  }

  @Test
  @DisplayName("on MariaDB through the JPA adapter")
  void mariadb() throws Exception {
    String base = Optional.ofNullable(System.getenv("OUTBOX_MARIADB_URL"))
        .orElse("jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root");
    String server = base.substring(0, base.indexOf('/', "jdbc:mariadb://".length()));
    String query = base.contains("?") ? base.substring(base.indexOf('?')) : "";
    runOnJdbc("MariaDB", base, server + "/outbox_drain" + query,
        "DROP DATABASE IF EXISTS outbox_drain", "CREATE DATABASE outbox_drain", OutboxDatabase.MARIADB,
        "OUTBOX_MARIADB_URL");
  }

  @ParameterizedTest(name = "on {0}")
  @CsvSource({"standalone Redis, 1", "Redis Cluster, 4"})
  void redis(String topology, int shards) throws Exception {
    String prefix = "outbox-drain-" + UUID.randomUUID().toString().substring(0, 8);
    List<HostAndPort> nodes = shards == 1
        ? List.of(HostAndPort.from(Optional.ofNullable(System.getenv("OUTBOX_REDIS_URL")).orElse("127.0.0.1:6379")))
        : Arrays.stream(Optional.ofNullable(System.getenv("OUTBOX_REDIS_CLUSTER"))
            .orElse("127.0.0.1:7101,127.0.0.1:7102,127.0.0.1:7103").split(",")).map(HostAndPort::from).toList();
    UnifiedJedis client;
    try {
      client = shards == 1 ? new JedisPooled(nodes.get(0)) : new JedisCluster(new HashSet<>(nodes));
      client.ping();
    } catch (RuntimeException unreachable) {
      throw new IllegalStateException(topology + " is required for this test but is not reachable at " + nodes
          + ". Start it (`bash .ci/run` does) or set " + (shards == 1 ? "OUTBOX_REDIS_URL=host:port" : "OUTBOX_REDIS_CLUSTER=host:port,…"),
          unreachable);
    }
    try (UnifiedJedis redis = client) {
      MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
      ParallelDrainRun.run(topology, RedisOutboxStore.builder(redis).keyPrefix(prefix).shards(shards).clock(clock).build(),
          clock, DRAINS, ENTRIES);
    } finally {
      for (HostAndPort node : nodes) {
        try (Jedis jedis = new Jedis(node)) {
          for (String key : jedis.keys("{" + prefix + ":*")) {
            jedis.unlink(key);
          }
        }
      }
    }
  }

  private static void runOnJdbc(String name, String adminUrl, String url, String drop, String create,
      OutboxDatabase database, String variable) throws Exception {
    try (Connection admin = DriverManager.getConnection(adminUrl); Statement statement = admin.createStatement()) {
      statement.execute(drop);
      statement.execute(create);
    } catch (SQLException unreachable) {
      throw new IllegalStateException(name + " is required for this test but is not reachable at " + adminUrl
          + ". Start it (`bash .ci/run` does) or set " + variable + "=<jdbc url>.", unreachable);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(24);
    if (database == OutboxDatabase.MARIADB) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    try (HikariDataSource dataSource = new HikariDataSource(config)) {
      OutboxSchema.create(dataSource, database);
      EntityManagerFactory factory = JpaOutbox.entityManagerFactory(dataSource, Map.of());
      try {
        MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
        ParallelDrainRun.run(name, JpaOutboxStore.builder(factory).clock(clock).build(), clock, DRAINS, ENTRIES);
      } finally {
        factory.close();
      }
    }
    try (Connection admin = DriverManager.getConnection(adminUrl); Statement statement = admin.createStatement()) {
      statement.execute(drop);
    }
  }
}
