package io.claimedoutbox.adapter.redis.testkit;

import io.claimedoutbox.adapter.redis.RedisKeys;
import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawCompareAndSet;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The Redis adapter's test kit: everything a test, a benchmark or the {@code outbox} program needs
 * to run the adapter over a server it is given. Built from a configured client (the caller owns it,
 * with its pool, credentials and TLS; {@code JedisPooled} or {@code JedisCluster}) and a namespace —
 * a key prefix and shard count whose keys the kit may delete. Keys outside the prefix are never
 * touched.
 */
public final class RedisTestKit {

  private final UnifiedJedis client;
  private final List<HostAndPort> nodes;
  private final String keyPrefix;
  private final RedisKeys keys;
  private final OutboxStoreFixture fixture;

  private RedisTestKit(UnifiedJedis client, List<HostAndPort> nodes, String keyPrefix, int shards, String backendName) {
    this.client = client;
    this.nodes = List.copyOf(nodes);
    this.keyPrefix = keyPrefix;
    this.keys = new RedisKeys(keyPrefix, shards);
    this.fixture = new RedisStoreFixture(this, backendName);
  }

  /**
   * @param client a configured client; stays the caller's
   * @param nodes the server, or a cluster's seed nodes, the client was built on: the fault rules open
   *     a client of their own there, through the suite's proxies
   * @param keyPrefix the prefix the kit owns
   * @param shards how many shards stores spread over
   * @param backendName how reports name the backend, for example {@code Redis 7.2 (Lua scripts)}
   * @return the kit
   */
  public static RedisTestKit create(UnifiedJedis client, List<HostAndPort> nodes, String keyPrefix, int shards,
      String backendName) {
    return new RedisTestKit(client, nodes, keyPrefix, shards, backendName);
  }

  /** @return the server, or the cluster's seed nodes */
  public List<HostAndPort> nodes() {
    return nodes;
  }

  /** @return the key prefix the kit owns */
  public String keyPrefix() {
    return keyPrefix;
  }

  /** @return the client the kit was built from */
  public UnifiedJedis client() {
    return client;
  }

  /** @return the key layout of the kit's stores */
  public RedisKeys keys() {
    return keys;
  }

  /** @return a builder for a store over the kit's prefix and shards, to set a clock on */
  public RedisOutboxStore.Builder storeBuilder() {
    return RedisOutboxStore.builder(client).keyPrefix(keyPrefix).shards(keys.shards());
  }

  /**
   * The conformance fixture over the kit's keys: hashes read and damaged with plain commands; its
   * unreachable twin is a client of its own pointed at a port where nothing listens.
   *
   * @return the fixture, the same instance on every call
   */
  public OutboxStoreFixture fixture() {
    return fixture;
  }

  /**
   * The server's cheapest scripted write — an {@code EVALSHA} of a one-line {@code SET} — under the
   * kit's prefix, the floor the adapter's calls are measured against. It always matches.
   *
   * @param keys how many keys to write over
   * @return the compare-and-set
   */
  public RawCompareAndSet rawCompareAndSet(int keys) {
    return new RedisRawCompareAndSet(client, "{" + keyPrefix + ":raw}:");
  }

  /**
   * Deletes every key of the kit's shards, in slices of a thousand, so a million-entry backlog
   * never blocks the server for long.
   */
  public void deleteAll() {
    for (int shard = 0; shard < keys.shards(); shard++) {
      deleteMatching(keys.tag(shard) + ":*");
    }
    deleteMatching("{" + keyPrefix + ":raw}:*");
  }

  private void deleteMatching(String pattern) {
    ScanParams matching = new ScanParams().match(pattern).count(1000);
    String cursor = ScanParams.SCAN_POINTER_START;
    do {
      ScanResult<String> slice = client.scan(cursor, matching);
      if (!slice.getResult().isEmpty()) {
        client.unlink(slice.getResult().toArray(String[]::new));
      }
      cursor = slice.getCursor();
    } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
  }
}
