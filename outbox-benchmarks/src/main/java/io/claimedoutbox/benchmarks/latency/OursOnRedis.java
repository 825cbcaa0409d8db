package io.claimedoutbox.benchmarks.latency;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import java.time.Duration;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;

/**
 * Our drain with its defaults on standalone Redis. Redis has no transaction to share with business
 * data, so a produced entry is one append (one script call); the store tells the drain after it.
 */
final class OursOnRedis implements LatencySystem {

  static final String PREFIX = "outbox-latency";

  private final HostAndPort server;
  private final JedisPooled client;
  private final RedisOutboxStore store;
  private OutboxDrain drain;

  OursOnRedis(HostAndPort server) {
    this.server = server;
    this.client = new JedisPooled(server);
    this.store = RedisOutboxStore.builder(client).keyPrefix(PREFIX).build();
  }

  @Override
  public java.time.Duration pollInterval() {
    return java.time.Duration.ofSeconds(5);
  }

  @Override
  public String name() {
    return "ours (defaults)";
  }

  static void clear(HostAndPort server) {
    try (Jedis jedis = new Jedis(server)) {
      for (String key : jedis.keys("{" + PREFIX + ":*")) {
        jedis.unlink(key);
      }
    }
  }

  @Override
  public void start(Recording recording) {
    clear(server);
    drain = OutboxDrain.builder(store, message -> recording.handlerStarted(
            BusinessTable.sequenceOf(message.entry().message().payload())))
        .workerId(WorkerId.of("latency-redis")).build();
    drain.start();
  }

  @Override
  public void produce(long sequence) {
    store.append(OutboxMessage.of("order-placed", BusinessTable.payload(sequence)));
  }

  @Override
  public void stop() {
    if (drain != null) {
      drain.stop(Duration.ofSeconds(30));
      drain = null;
    }
  }

  @Override
  public void close() {
    stop();
    clear(server);
    client.close();
  }
}
