package io.claimedoutbox.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisSentineled;
import redis.clients.jedis.UnifiedJedis;

/**
 * {@link RedisOutboxStore.Builder#waitForReplicas}: on the master of {@code .ci/topology start
 * redis-replica} (found through its sentinels) a write counts once its replica acknowledged it, and the
 * replica holds it; on a server with no replica (the standalone one) nothing the replicas did not
 * acknowledge is reported written.
 */
@DisplayName("Redis writes acknowledged by replicas (WAIT)")
class ReplicaAcknowledgementTest {

  private static final WorkerId WORKER = WorkerId.of("wait-test");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final String PREFIX = "outbox-wait-test";
  private static final String SENTINELS = System.getenv().getOrDefault("OUTBOX_REDIS_SENTINELS", "127.0.0.1:26391");

  private UnifiedJedis client;

  @AfterEach
  void close() {
    if (client != null) {
      client.close();
    }
  }

  @Test
  @DisplayName("with a replica: append, claim and delivery are acknowledged, APPLIED, and the replica holds the delivery")
  void acknowledgedWritesAreOnTheReplica() {
    client = sentineled();
    RedisOutboxStore store = clean(RedisOutboxStore.builder(client).keyPrefix(PREFIX)
        .waitForReplicas(1, Duration.ofSeconds(2)).build());

    OutboxEntry appended = store.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = store.claimDue(WORKER, 1, LEASE).get(0);
    var delivered = store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(delivered.outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
    try (JedisPooled replica = new JedisPooled(replicaAddress())) {
      // WAIT returned after the replica acknowledged, so it already holds the write, with no sleep
      Optional<OutboxEntry> onReplica = RedisOutboxStore.builder(replica).keyPrefix(PREFIX).build().find(appended.id());
      assertThat(onReplica).map(OutboxEntry::status).contains(EntryStatus.DELIVERED);
      assertThat(onReplica.get().lastWriteStamp()).isEqualTo(delivered.entry().lastWriteStamp());
    }
  }

  @Test
  @DisplayName("without the replicas asked for: a transition's outcome is unknown (never APPLIED), an append and a claim fail")
  void unacknowledgedWritesAreNotReportedWritten() {
    client = new JedisPooled(HostAndPort.from(System.getenv().getOrDefault("OUTBOX_REDIS_URL", "127.0.0.1:6379")
        .replaceFirst("^redis://", "")));
    RedisOutboxStore plain = clean(RedisOutboxStore.builder(client).keyPrefix(PREFIX).build());
    RedisOutboxStore waiting = RedisOutboxStore.builder(client).keyPrefix(PREFIX)
        .waitForReplicas(1, Duration.ofMillis(50)).build();
    plain.append(OutboxMessage.of("t", new byte[] {1}));
    Claim claim = plain.claimDue(WORKER, 1, LEASE).get(0);

    assertThatThrownBy(() -> waiting.tryMarkClaimDelivered(claim, DeliveryReceipt.none()))
        .isInstanceOf(TransitionOutcomeUnknownException.class)
        .hasRootCauseMessage("outbox store: DELIVERED of " + claim.entryId() + ": written on the master but acknowledged by 0"
            + " of 1 replicas within 50 ms; a failover before they catch up would undo it, so it is not counted as"
            + " written")
        .satisfies(unknown -> assertThat(((TransitionOutcomeUnknownException) unknown).writeStamp())
            .isEqualTo(plain.find(claim.entryId()).orElseThrow().lastWriteStamp().orElseThrow()));
    assertThatThrownBy(() -> waiting.append(OutboxMessage.of("t", new byte[] {2})))
        .isInstanceOf(OutboxStoreException.class).hasMessageContaining("acknowledged by 0 of 1 replicas");
    assertThatThrownBy(() -> waiting.claimDue(WORKER, 1, LEASE))
        .isInstanceOf(OutboxStoreException.class).hasMessageContaining("acknowledged by 0 of 1 replicas");
  }

  @Test
  @DisplayName("bad settings are refused before any I/O, naming the argument")
  void badSettingsAreRefused() {
    RedisOutboxStore.Builder builder = RedisOutboxStore.builder(new JedisPooled("127.0.0.1", 1));
    assertThatThrownBy(() -> builder.waitForReplicas(-1, Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("replicas");
    assertThatThrownBy(() -> builder.waitForReplicas(1, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("timeout");
    assertThatThrownBy(() -> builder.waitForReplicas(1, null))
        .isInstanceOf(NullPointerException.class).hasMessageContaining("timeout");
  }

  /** Removes every key of the test's prefix (a store of it, first built, then used). */
  private RedisOutboxStore clean(RedisOutboxStore store) {
    Set<String> keys = client.keys(PREFIX + "*");
    if (!keys.isEmpty()) {
      client.del(keys.toArray(String[]::new));
    }
    return store;
  }

  private static Set<HostAndPort> sentinels() {
    return Stream.of(SENTINELS.split(",")).map(HostAndPort::from).collect(Collectors.toSet());
  }

  private static UnifiedJedis sentineled() {
    HostAndPort first = sentinels().iterator().next();
    try (Jedis probe = new Jedis(first)) {
      probe.ping();
    } catch (RuntimeException unreachable) {
      throw new IllegalStateException("a Redis master with a replica and sentinels is required for this test but no"
          + " sentinel answers at " + SENTINELS + ". Start one with `bash .ci/topology start redis-replica` (.ci/run"
          + " does), or name other sentinels (master name \"outbox\") with OUTBOX_REDIS_SENTINELS=host:port,...",
          unreachable);
    }
    return new JedisSentineled("outbox", DefaultJedisClientConfig.builder().build(), sentinels(),
        DefaultJedisClientConfig.builder().build());
  }

  private static HostAndPort replicaAddress() {
    try (Jedis sentinel = new Jedis(sentinels().iterator().next())) {
      List<java.util.Map<String, String>> replicas = sentinel.sentinelReplicas("outbox");
      java.util.Map<String, String> replica = replicas.stream()
          .filter(r -> !r.getOrDefault("flags", "").contains("down")).findFirst()
          .orElseThrow(() -> new IllegalStateException("the sentinels know no live replica of outbox"));
      return new HostAndPort(replica.get("ip"), Integer.parseInt(replica.get("port")));
    }
  }
}
