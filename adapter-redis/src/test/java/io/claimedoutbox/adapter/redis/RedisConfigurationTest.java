package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxStoreException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.ClientKillParams;
import redis.clients.jedis.util.JedisClusterCRC16;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Redis adapter: configuration, ACL credentials, shard placement")
class RedisConfigurationTest {

  @Test
  void keyPrefixesThatBreakTheKeySchemeAreRejected() {
    RedisOutboxStore.Builder builder = RedisOutboxStore.builder(RedisFixtures.of(RedisTopology.STANDALONE).client());
    for (String bad : List.of("a{b", "a}b", "with space", "", "tab\t")) {
      assertThatThrownBy(() -> builder.keyPrefix(bad)).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("keyPrefix");
    }
    assertThatThrownBy(() -> builder.shards(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shards");
    assertThatThrownBy(() -> RedisOutboxStore.builder(null)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("client");
  }

  @Test
  @DisplayName("after CLIENT KILL of every pooled connection, a store over a JedisPooled answers every next call")
  void killedPooledConnectionsAreReplaced() {
    String prefix = "outbox-kill-" + UUID.randomUUID().toString().substring(0, 8);
    HostAndPort server = RedisFixtures.of(RedisTopology.STANDALONE).nodes().get(0);
    try (JedisPooled client = new JedisPooled(server,
            DefaultJedisClientConfig.builder().clientName("outbox-kill-test").build());
        Jedis admin = new Jedis(server)) {
      RedisOutboxStore store = RedisOutboxStore.builder(client).keyPrefix(prefix).build();
      OutboxEntry appended = store.append(OutboxMessage.of("orders", new byte[] {1}));
      IntStream.range(0, 8).parallel().forEach(i -> store.find(appended.id()));

      List<String> storeConnections = admin.clientList().lines().filter(line -> line.contains(" name=outbox-kill-test "))
          .map(line -> line.substring("id=".length(), line.indexOf(' '))).toList();
      storeConnections.forEach(id -> admin.clientKill(ClientKillParams.clientKillParams().id(id)));

      assertThat(storeConnections).as("the store's pooled connections, killed").isNotEmpty();
      assertThat(store.find(appended.id())).as("the first call after the kill").contains(appended);
      assertThat(store.append(OutboxMessage.of("orders", new byte[] {2}))).isNotNull();
      assertThat(store.claimDue(WorkerId.of("w"), 10, Duration.ofSeconds(30))).hasSize(2);
    } finally {
      try (Jedis cleanup = new Jedis(server)) {
        cleanup.keys("{" + prefix + ":*").forEach(cleanup::unlink);
      }
    }
  }

  @Test
  @DisplayName("a client configured with an ACL user works within the user's keys; outside them it is refused")
  void aclRestrictedClientsWork() {
    RedisTestKit admin = RedisFixtures.of(RedisTopology.STANDALONE);
    admin.client().sendCommand(redis.clients.jedis.Protocol.Command.ACL,
        "SETUSER", "outbox-acl-test", "reset", "on", ">s3cret", "~{outbox-acl:*", "+@all");
    try (JedisPooled client = new JedisPooled(admin.nodes().get(0),
        DefaultJedisClientConfig.builder().user("outbox-acl-test").password("s3cret").build())) {
      RedisOutboxStore allowed = RedisOutboxStore.builder(client).keyPrefix("outbox-acl").build();
      OutboxEntry entry = allowed.append(OutboxMessage.of("t", new byte[] {1}));
      assertThat(allowed.find(entry.id())).contains(entry);
      assertThat(allowed.delete(entry.id())).isTrue();
      RedisOutboxStore outside = RedisOutboxStore.builder(client).keyPrefix("outbox-other").build();
      assertThatThrownBy(() -> outside.append(OutboxMessage.of("t", new byte[] {1})))
          .as("keys outside the user's ACL pattern").isInstanceOf(OutboxStoreException.class);
    } finally {
      admin.client().sendCommand(redis.clients.jedis.Protocol.Command.ACL, "DELUSER", "outbox-acl-test");
    }
  }

  @Test
  @DisplayName("the cluster fixture's four shards live on more than one master, and appends reach every shard")
  void shardsSpreadOverMasters() {
    RedisTestKit fixture = RedisFixtures.of(RedisTopology.CLUSTER);
    JedisCluster cluster = (JedisCluster) fixture.client();
    Set<String> masters = new HashSet<>();
    for (int shard = 0; shard < fixture.keys().shards(); shard++) {
      try (Connection connection = cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(fixture.keys().tag(shard)))) {
        masters.add(connection.toString());
      }
    }
    assertThat(masters).as("masters holding the shards").hasSizeGreaterThanOrEqualTo(2);

    fixture.fixture().clean();
    RedisOutboxStore store = fixture.storeBuilder().build();
    Set<String> shardsUsed = new HashSet<>();
    for (int i = 0; i < 8; i++) {
      String id = store.append(OutboxMessage.of("t", new byte[] {1})).id().value();
      shardsUsed.add(id.substring(id.lastIndexOf('.') + 1));
    }
    assertThat(shardsUsed).containsExactlyInAnyOrder("0", "1", "2", "3");
  }

  @Test
  @DisplayName("a transition on a server that refuses the connection: OutboxStoreException (nothing sent), not an unknown outcome")
  void refusedConnectionIsNothingWritten() {
    RedisOutboxStore live = RedisOutboxStore.builder(RedisFixtures.of(RedisTopology.STANDALONE).client())
        .keyPrefix("outbox-refused-" + UUID.randomUUID().toString().substring(0, 8)).build();
    live.append(OutboxMessage.of("orders", new byte[] {1}));
    io.claimedoutbox.domain.Claim claim = live.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30)).get(0);
    try (JedisPooled refusing = new JedisPooled("127.0.0.1", 1)) {
      RedisOutboxStore store = RedisOutboxStore.builder(refusing).build();
      assertThatThrownBy(() -> store.tryMarkClaimDelivered(claim, io.claimedoutbox.domain.DeliveryReceipt.none()))
          .isInstanceOf(OutboxStoreException.class)
          .isNotInstanceOf(io.claimedoutbox.port.TransitionOutcomeUnknownException.class)
          .hasMessageContaining("nothing was sent");
    } finally {
      live.delete(claim.entryId());
    }
  }

  @Test
  @DisplayName("no failure of a store over a client with a password repeats the password")
  void failuresNeverRepeatThePassword() {
    try (JedisPooled refusing = new JedisPooled(java.net.URI.create("redis://default:SECRET123@127.0.0.1:1"))) {
      RedisOutboxStore store = RedisOutboxStore.builder(refusing).build();
      Throwable failure = org.assertj.core.api.Assertions.catchThrowable(
          () -> store.claimDue(WorkerId.of("w"), 1, Duration.ofSeconds(30)));
      java.io.StringWriter printed = new java.io.StringWriter();
      failure.printStackTrace(new java.io.PrintWriter(printed));
      assertThat(printed.toString()).contains("OutboxStoreException").doesNotContain("SECRET123");
    }
  }
}
