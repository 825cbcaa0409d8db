package io.claimedoutbox.adapter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * One Lua script from the jar, run by its SHA-1. The script is loaded into a node's cache the first
 * time that node answers {@code NOSCRIPT} (never loaded, server restarted, {@code SCRIPT FLUSH}),
 * then run again; routing by the first key sends both to the node that owns the keys.
 */
final class LuaScript {

  private final byte[] source;
  private final byte[] sha;

  private LuaScript(String source) {
    this.source = source.getBytes(StandardCharsets.UTF_8);
    this.sha = sha1Hex(this.source).getBytes(StandardCharsets.US_ASCII);
  }

  static LuaScript load(String name) {
    String resource = "io/claimedoutbox/adapter/redis/scripts/" + name + ".lua";
    try (InputStream in = LuaScript.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing script resource " + resource);
      }
      return new LuaScript(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException failure) {
      throw new UncheckedIOException(failure);
    }
  }

  Object run(UnifiedJedis redis, List<byte[]> keys, List<byte[]> args) {
    try {
      return redis.evalsha(sha, keys, args);
    } catch (JedisNoScriptException notCached) {
      redis.scriptLoad(source, keys.get(0));
      return redis.evalsha(sha, keys, args);
    }
  }

  /** A run's reply, and how many replicas had acknowledged its effects when {@code WAIT} answered. */
  record Acknowledged(Object reply, long replicas) {}

  /**
   * Runs the script and {@code WAIT}s for {@code replicas} in the same round trip, on the same
   * connection (a pipeline): {@code WAIT} counts the replicas that acknowledged every write this
   * connection made before it, so it must follow the script on its own connection.
   */
  Acknowledged runThenWait(UnifiedJedis redis, List<byte[]> keys, List<byte[]> args, int replicas, long timeoutMillis) {
    for (int attempt = 0; ; attempt++) {
      try (AbstractPipeline pipeline = redis.pipelined()) {
        Response<Object> reply = pipeline.evalsha(sha, keys, args);
        Response<Long> acknowledged = pipeline.waitReplicas(keys.get(0), replicas, timeoutMillis);
        pipeline.sync();
        return new Acknowledged(reply.get(), acknowledged.get());
      } catch (JedisDataException failure) {
        boolean notCached = failure instanceof JedisNoScriptException || String.valueOf(failure.getMessage())
            .startsWith("NOSCRIPT");
        if (!notCached || attempt > 0) {
          throw failure;
        }
        // a promoted replica has no script cache: SCRIPT LOAD is not replicated
        redis.scriptLoad(source, keys.get(0));
      }
    }
  }

  private static String sha1Hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(bytes));
    } catch (NoSuchAlgorithmException impossible) {
      throw new IllegalStateException("every JVM has SHA-1", impossible);
    }
  }
}
