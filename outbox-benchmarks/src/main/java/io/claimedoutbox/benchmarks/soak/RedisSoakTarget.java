package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.JedisPooled;

/**
 * The Redis adapter on a {@code redis-server} of the soak's own, with an append-only file synced on
 * every write ({@code appendfsync always}): {@link #killConnections()} is {@code CLIENT KILL} of every
 * client but the killer, {@link #restartServer()} a {@code kill -9} and a restart on the same file.
 */
final class RedisSoakTarget implements SoakTarget {

  private final int port;
  private final Path directory;
  private final JedisPooled client;
  private final OutboxClaimOutcomeStore store;
  private Process server;

  RedisSoakTarget(int port) throws IOException, InterruptedException {
    this.port = port;
    this.directory = Files.createTempDirectory("outbox-soak-redis");
    this.server = startServer();
    ConnectionPoolConfig pool = new ConnectionPoolConfig();
    pool.setMaxTotal(16);
    this.client = new JedisPooled(pool, new HostAndPort("127.0.0.1", port),
        DefaultJedisClientConfig.builder().clientName("outbox-soak").socketTimeoutMillis(2_000).build());
    this.store = RedisOutboxStore.builder(client).keyPrefix("soak").build();
  }

  private Process startServer() throws IOException, InterruptedException {
    Process started = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port),
        "--bind", "127.0.0.1", "--appendonly", "yes", "--appendfsync", "always", "--save", "",
        "--dir", directory.toString()))
        .redirectErrorStream(true)
        .redirectOutput(directory.resolve("redis.log").toFile())
        .start();
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (System.nanoTime() < deadline) {
      try (Jedis probe = new Jedis("127.0.0.1", port)) {
        if ("PONG".equals(probe.ping())) {
          return started;
        }
      } catch (RuntimeException notYet) {
        Thread.sleep(50);
      }
    }
    started.destroyForcibly();
    throw new IOException("redis-server did not answer on port " + port + "; see " + directory.resolve("redis.log"));
  }

  @Override
  public String name() {
    return "Redis (own server, AOF always)";
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public void killConnections() {
    try (Jedis admin = new Jedis("127.0.0.1", port)) {
      admin.sendCommand(redis.clients.jedis.Protocol.Command.CLIENT, "KILL", "TYPE", "normal", "SKIPME", "yes");
    }
  }

  @Override
  public boolean canRestart() {
    return true;
  }

  @Override
  public void restartServer() throws IOException, InterruptedException {
    server.destroyForcibly();
    server.waitFor();
    server = startServer();
  }

  @Override
  public void close() throws InterruptedException {
    client.close();
    server.destroyForcibly();
    server.waitFor();
  }
}
