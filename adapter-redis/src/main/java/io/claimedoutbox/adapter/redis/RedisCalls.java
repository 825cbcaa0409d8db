package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.WriteOutcomeUnknownException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.function.Supplier;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * How the store runs a call on its client: Jedis failures become {@link OutboxStoreException}s
 * naming the call, and a call that may be repeated blindly is repeated once after a broken
 * connection.
 */
final class RedisCalls {

  private final UnifiedJedis redis;
  private final ReplicaAcknowledgement acknowledgement;

  RedisCalls(UnifiedJedis redis, ReplicaAcknowledgement acknowledgement) {
    this.redis = redis;
    this.acknowledgement = acknowledgement;
  }

  /**
   * Runs a writing script as {@link #safely} does, then waits for the replicas the store asks for
   * ({@link ReplicaAcknowledgement}).
   */
  Object write(String what, ScriptCall call) {
    return safely(what, () -> acknowledgement.run(redis, call, what));
  }

  /**
   * Runs a call that may be repeated blindly (a read, or a script whose repeat writes nothing more:
   * it recognises its own earlier run by its stamps, or compares revisions the first run moved on)
   * and repeats it once after a broken connection: a server restart or {@code CLIENT KILL} leaves
   * every idle pooled connection broken, and the first use of each would otherwise fail. A
   * {@link JedisPooled} drops its idle connections first, so the repeat gets a fresh one (idle
   * connections hold no state, so dropping them costs only a reconnect).
   */
  <T> T safely(String what, Supplier<T> call) {
    try {
      return once(what, call);
    } catch (OutboxStoreException failure) {
      if (!brokeConnection(failure) || failure instanceof WriteOutcomeUnknownException) {
        throw failure;
      }
      dropIdleConnections();
      try {
        return once(what, call);
      } catch (OutboxStoreException repeatFailure) {
        // A repeat that could not even connect proves nothing about the first try, which may have been sent.
        if (neverSent(repeatFailure) && !neverSent(failure)) {
          failure.addSuppressed(repeatFailure);
          throw failure;
        }
        throw repeatFailure;
      }
    }
  }

  /** Runs a call once. */
  static <T> T once(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (JedisException failure) {
      throw new OutboxStoreException("outbox store failed: " + what + ": " + failure.getMessage(), failure);
    }
  }

  /** Whether the call failed on its connection (not on an error reply): it may or may not have run. */
  static boolean brokeConnection(OutboxStoreException failure) {
    return failure.getCause() instanceof JedisConnectionException;
  }

  /**
   * Whether the failure happened while connecting: the request never left this process. Jedis keeps
   * the socket's own failure as a suppressed exception of its "Failed to connect" (one per address
   * it tried), so those are read too; the store's own suppressed failures are not.
   */
  static boolean neverSent(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (isConnectFailure(cause)) {
        return true;
      }
      if (cause instanceof JedisConnectionException connection) {
        for (Throwable attempt : connection.getSuppressed()) {
          if (isConnectFailure(attempt)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean isConnectFailure(Throwable failure) {
    return failure instanceof ConnectException || failure instanceof UnknownHostException
        || failure instanceof NoRouteToHostException;
  }

  /** After a broken connection the pool's idle ones are broken too (a restart, a failover): they go first. */
  private void dropIdleConnections() {
    if (redis instanceof JedisPooled pooled) {
      pooled.getPool().clear();
    } else if (redis instanceof JedisCluster cluster) {
      cluster.getClusterNodes().values().forEach(ConnectionPool::clear);
    }
  }

  /**
   * A pipelined command's answer. A cluster pipeline logs a node's broken connection instead of
   * throwing it and leaves that node's answers unset, which {@link Response#get} reports as a misuse;
   * here it is what it is, a lost answer, so the caller's handling of broken connections applies.
   */
  static <T> T answer(Response<T> response) {
    try {
      return response.get();
    } catch (IllegalStateException unanswered) {
      throw new JedisConnectionException("no answer to a pipelined read: its connection broke", unanswered);
    }
  }
}
