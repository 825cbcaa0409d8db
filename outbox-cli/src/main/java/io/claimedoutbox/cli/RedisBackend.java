package io.claimedoutbox.cli;

import io.claimedoutbox.adapter.redis.testkit.RedisTestKit;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.UUID;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;

/**
 * Opens the Redis adapter on a standalone server through its test kit, under a key prefix of its
 * own ({@code outbox-cli-…}) whose keys are deleted when the session closes.
 */
final class RedisBackend {

  private RedisBackend() {}

  static BackendSession open(String url, Clock clock) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException malformed) {
      throw new UsageException("malformed Redis URL '" + url + "': " + malformed.getMessage());
    }
    if (uri.getHost() == null) {
      throw new UsageException("malformed Redis URL '" + url + "'; expected redis://[user:password@]host:port");
    }
    JedisPooled redis;
    String label;
    try {
      redis = new JedisPooled(uri);
      label = "Redis " + redis.info("server").lines().filter(line -> line.startsWith("redis_version:"))
          .map(line -> line.substring("redis_version:".length()).strip()).findFirst().orElse("") + " (Lua scripts)";
    } catch (RuntimeException unreachable) {
      throw UnreachableBackendException.at("Redis", url, unreachable);
    }
    String prefix = "outbox-cli-" + UUID.randomUUID().toString().substring(0, 8);
    HostAndPort server = new HostAndPort(uri.getHost(), uri.getPort() < 0 ? 6379 : uri.getPort());
    RedisTestKit kit = RedisTestKit.create(redis, List.of(server), prefix, 1, label);
    return new BackendSession(label, kit.storeBuilder().clock(clock).build(), kit.fixture(), kit::rawCompareAndSet,
        () -> {
          kit.deleteAll();
          redis.close();
        });
  }
}
