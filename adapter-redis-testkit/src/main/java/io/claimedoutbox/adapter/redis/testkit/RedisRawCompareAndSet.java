package io.claimedoutbox.adapter.redis.testkit;

import io.claimedoutbox.conformance.RawCompareAndSet;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/** One {@code EVALSHA} of a one-line {@code SET}: what the cheapest scripted write costs. */
final class RedisRawCompareAndSet implements RawCompareAndSet {

  private static final String SET = "return redis.call('SET', KEYS[1], ARGV[1])";

  private final UnifiedJedis client;
  private final String keyPrefix;
  private final byte[] sha;

  RedisRawCompareAndSet(UnifiedJedis client, String keyPrefix) {
    this.client = client;
    this.keyPrefix = keyPrefix;
    this.sha = client.scriptLoad(SET, keyPrefix).getBytes(StandardCharsets.US_ASCII);
  }

  @Override
  public boolean compareAndSet(int key, long expected) {
    byte[] name = (keyPrefix + key).getBytes(StandardCharsets.UTF_8);
    client.evalsha(sha, List.of(name), List.of(Long.toString(expected + 1).getBytes(StandardCharsets.UTF_8)));
    return true;
  }

  @Override
  public void close() {
    // The keys go with the kit's deleteAll.
  }
}
