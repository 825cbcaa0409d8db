package io.claimedoutbox.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;

/** The operator's commands against the machine's PostgreSQL and Redis, on an outbox the test fills. */
@DisplayName("outbox status, dead-letters, requeue and purge against a real PostgreSQL and Redis")
class OperationsCommandsTest {

  private static final String POSTGRESQL = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
  private static final String REDIS = Optional.ofNullable(System.getenv("OUTBOX_REDIS_URL")).orElse("redis://127.0.0.1:6379");

  /** A reason whose useful part comes after the first 80 characters, as a wrapped exception's does. */
  private static final String LONG_REASON = "handler failed: org.example.OrderRejected: wrapped by PublishFailed:"
      + " the broker refused the message because queue orders.v2 does not exist";

  /** Two delivered entries, dead letters: two of topic orders, one of payments; returns the orders ones. */
  private static List<EntryId> fill(OutboxClaimOutcomeStore store) {
    List<OutboxEntry> appended = store.appendAll(List.of(OutboxMessage.of("orders", new byte[] {1}),
        OutboxMessage.of("orders", new byte[] {2}), OutboxMessage.of("orders", new byte[] {3}),
        OutboxMessage.of("orders", new byte[] {4}), OutboxMessage.of("payments", new byte[] {5})));
    for (Claim claim : store.claimDue(WorkerId.of("w"), 10, Duration.ofSeconds(30))) {
      int index = appended.stream().map(OutboxEntry::id).toList().indexOf(claim.entryId());
      if (index < 2) {
        store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());
      } else {
        store.tryMarkClaimDeadLettered(claim, new DeadLetter("poison " + index + ": " + LONG_REASON));
      }
    }
    return List.of(appended.get(2).id(), appended.get(3).id());
  }

  private static void operate(OutboxClaimOutcomeStore store, String... outboxOptions) {
    List<EntryId> orders = fill(store);
    ProgramRun.Run status = ProgramRun.run(concat("status", outboxOptions));
    assertThat(status.status()).as(status.err()).isZero();
    assertThat(status.out()).containsPattern("delivered\\s+\\|?\\s*2").containsPattern("dead_lettered\\s+\\|?\\s*3")
        .contains("oldest due entry: none due");

    ProgramRun.Run letters = ProgramRun.run(concat("dead-letters", outboxOptions, "--topic", "orders", "--limit", "1"));
    assertThat(letters.status()).as(letters.err()).isZero();
    EntryId first = orders.stream().sorted().findFirst().orElseThrow();
    assertThat(letters.out()).contains(first.value(), "poison", "next page: --after " + first.value())
        .as("the whole reason, not its first 80 characters").contains("queue orders.v2 does not exist")
        .doesNotContain("payments");

    ProgramRun.Run one = ProgramRun.run(concat("requeue", outboxOptions, "--id", first.value()));
    assertThat(one.status()).as(one.err()).isZero();
    assertThat(one.out()).contains(first.value() + ": requeued");
    assertThat(store.find(first).orElseThrow().status()).isEqualTo(EntryStatus.PENDING);
    ProgramRun.Run again = ProgramRun.run(concat("requeue", outboxOptions, "--id", first.value()));
    assertThat(again.status()).isEqualTo(1);
    assertThat(again.out()).contains("not requeued: it is pending");

    ProgramRun.Run all = ProgramRun.run(concat("requeue", outboxOptions, "--all", "--topic", "orders"));
    assertThat(all.out()).contains("requeued 1 dead letter of topic orders");

    ProgramRun.Run dryRun = ProgramRun.run(concat("purge", outboxOptions, "--older-than", "0s", "--dry-run"));
    assertThat(dryRun.status()).as(dryRun.err()).isZero();
    assertThat(dryRun.out()).contains("dry run: 3 finished entries older than 0 ms would be purged; nothing was deleted");
    assertThat(store.find(orders.get(1))).as("a dry run deletes nothing").isPresent();

    ProgramRun.Run purge = ProgramRun.run(concat("purge", outboxOptions, "--older-than", "0s", "--batch-size", "1"));
    assertThat(purge.status()).as(purge.err()).isZero();
    assertThat(purge.out()).contains("purged 3 finished entries");
    assertThat(store.find(orders.get(0))).isPresent();
    assertThat(ProgramRun.run(concat("status", outboxOptions)).out()).containsPattern("total\\s+\\|?\\s*2");
  }

  private static String[] concat(String command, String[] options, String... more) {
    String[] all = new String[1 + options.length + more.length];
    all[0] = command;
    System.arraycopy(options, 0, all, 1, options.length);
    System.arraycopy(more, 0, all, 1 + options.length, more.length);
    return all;
  }

  @Test
  void onPostgreSql() throws Exception {
    try (JdbcNamespace namespace = JdbcNamespace.create(POSTGRESQL, "outbox_cli_ops");
        HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(namespace.url());
      try (JpaTestKit kit = JpaTestKit.create(dataSource, namespace.database(), "PostgreSQL")) {
        operate(kit.storeBuilder().build(), "--url", namespace.url());
      }
    }
  }

  @Test
  void onRedis() {
    String prefix = "outbox-cli-ops-" + UUID.randomUUID().toString().substring(0, 8);
    java.net.URI uri = java.net.URI.create(REDIS);
    try (JedisPooled redis = new JedisPooled(uri)) {
      RedisTestKit kit = RedisTestKit.create(redis, List.of(new HostAndPort(uri.getHost(), uri.getPort())), prefix, 2,
          "Redis");
      try {
        operate(kit.storeBuilder().build(), "--url", REDIS, "--key-prefix", prefix, "--shards", "2");
      } finally {
        kit.deleteAll();
      }
    }
  }
}
