package io.claimedoutbox.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxStoreException;
import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.params.ClientKillParams;
import redis.clients.jedis.util.JedisClusterCRC16;

@DisplayName("Redis adapter: configuration, ACL credentials, shard placement")
class RedisConfigurationTest {

  @Test
  void keyPrefixesThatBreakTheKeySchemeAreRejected() {
    RedisOutboxStore.Builder builder = RedisOutboxStore.builder(URI.create("redis://127.0.0.1:6379"));
    for (String bad : List.of("a{b", "a}b", "with space", "", "tab\t")) {
      assertThatThrownBy(() -> builder.keyPrefix(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("keyPrefix");
    }
    assertThatThrownBy(() -> builder.shards(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shards");
    assertThatThrownBy(() -> RedisOutboxStore.builder(URI.create("http://x"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("redis://");
    assertThatThrownBy(() -> RedisOutboxStore.builder(RedisStoreFixture.of(RedisTopology.STANDALONE).client)
        .credentials("u", "p").build()).isInstanceOf(IllegalStateException.class).hasMessageContaining("client");
  }

  @Test
  @DisplayName("after CLIENT KILL of every pooled connection, a store built from a URL answers every next call")
  void killedPooledConnectionsAreReplaced() {
    String prefix = "outbox-kill-" + UUID.randomUUID().toString().substring(0, 8);
    try (RedisOutboxStore store = RedisOutboxStore.builder(URI.create("redis://127.0.0.1:6379")).keyPrefix(prefix).build();
        Jedis admin = new Jedis("127.0.0.1", 6379)) {
      OutboxEntry appended = store.append(OutboxMessage.of("orders", new byte[] {1}));
      IntStream.range(0, 8).parallel().forEach(i -> store.find(appended.id()));

      List<String> storeConnections = admin.clientList().lines().filter(line -> line.contains(" name=claimed-outbox "))
          .map(line -> line.substring("id=".length(), line.indexOf(' '))).toList();
      storeConnections.forEach(id -> admin.clientKill(ClientKillParams.clientKillParams().id(id)));

      assertThat(storeConnections).as("the store's pooled connections, killed").isNotEmpty();
      assertThat(store.find(appended.id())).as("the first call after the kill").contains(appended);
      assertThat(store.append(OutboxMessage.of("orders", new byte[] {2}))).isNotNull();
      assertThat(store.claimDue(WorkerId.of("w"), 10, Duration.ofSeconds(30))).hasSize(2);
    } finally {
      try (Jedis cleanup = new Jedis("127.0.0.1", 6379)) {
        cleanup.keys("{" + prefix + ":*").forEach(cleanup::unlink);
      }
    }
  }

  @Test
  @DisplayName("a URL whose database is not a number is rejected when the builder is made, naming it")
  void nonNumericDatabaseIsRejectedByName() {
    assertThatThrownBy(() -> RedisOutboxStore.builder(URI.create("redis://127.0.0.1:6379/notanumber")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("database must be a number").hasMessageContaining("notanumber");
    RedisOutboxStore.builder(URI.create("redis://127.0.0.1:6379/2"));
  }

  @Test
  @DisplayName("an ACL user and password from the URL or the builder reach Redis; a wrong one is refused")
  void aclCredentialsArePassedThrough() {
    RedisStoreFixture admin = RedisStoreFixture.of(RedisTopology.STANDALONE);
    admin.client.sendCommand(redis.clients.jedis.Protocol.Command.ACL,
        "SETUSER", "outbox-acl-test", "reset", "on", ">s3cret", "~{outbox-acl:*", "+@all");
    try {
      try (RedisOutboxStore store = RedisOutboxStore.builder(URI.create("redis://outbox-acl-test:s3cret@127.0.0.1:6379"))
          .keyPrefix("outbox-acl").build()) {
        OutboxEntry entry = store.append(OutboxMessage.of("t", new byte[] {1}));
        assertThat(store.find(entry.id())).contains(entry);
        assertThat(store.delete(entry.id())).isTrue();
      }
      try (RedisOutboxStore store = RedisOutboxStore.builder(URI.create("redis://127.0.0.1:6379"))
          .credentials("outbox-acl-test", "s3cret").keyPrefix("outbox-other").build()) {
        assertThatThrownBy(() -> store.append(OutboxMessage.of("t", new byte[] {1})))
            .as("keys outside the user's ACL pattern").isInstanceOf(OutboxStoreException.class);
      }
      assertThatThrownBy(() -> {
        try (RedisOutboxStore store = RedisOutboxStore.builder(URI.create("redis://outbox-acl-test:wrong@127.0.0.1:6379"))
            .keyPrefix("outbox-acl").build()) {
          store.append(OutboxMessage.of("t", new byte[] {1}));
        }
      }).isInstanceOf(OutboxStoreException.class);
    } finally {
      admin.client.sendCommand(redis.clients.jedis.Protocol.Command.ACL, "DELUSER", "outbox-acl-test");
    }
  }

  @Test
  @DisplayName("the cluster fixture's four shards live on more than one master, and appends reach every shard")
  void shardsSpreadOverMasters() {
    RedisStoreFixture fixture = RedisStoreFixture.of(RedisTopology.CLUSTER);
    JedisCluster cluster = (JedisCluster) fixture.client;
    Set<String> masters = new HashSet<>();
    for (int shard = 0; shard < fixture.keys.shards(); shard++) {
      try (Connection connection = cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(fixture.keys.tag(shard)))) {
        masters.add(connection.toString());
      }
    }
    assertThat(masters).as("masters holding the shards").hasSizeGreaterThanOrEqualTo(2);

    fixture.clean();
    try (RedisOutboxStore store = fixture.storeBuilder().build()) {
      Set<String> shardsUsed = new HashSet<>();
      for (int i = 0; i < 8; i++) {
        String id = store.append(OutboxMessage.of("t", new byte[] {1})).id().value();
        shardsUsed.add(id.substring(id.lastIndexOf('.') + 1));
      }
      assertThat(shardsUsed).containsExactlyInAnyOrder("0", "1", "2", "3");
    }
  }
}
