package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.port.spi.WriteStillRunningException;
import java.time.Duration;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * How many replicas must have acknowledged a write before the store counts it written
 * ({@link RedisOutboxStore.Builder#waitForReplicas}). With none (the default) a write counts once the
 * master ran it; a failover to a replica that had not received it yet undoes it. With some, each
 * writing script is followed by {@code WAIT} on its connection, and a write the replicas did not
 * acknowledge in time, or whose connection broke before they did, is reported as not known to be
 * written: a transition's outcome is unknown (never {@code APPLIED}), an append or a claim fails.
 */
record ReplicaAcknowledgement(int replicas, Duration timeout) {

  /** Counts a write once the master ran it. */
  static final ReplicaAcknowledgement NONE = new ReplicaAcknowledgement(0, Duration.ZERO);

  /**
   * Runs a writing script and, when replicas are asked for, waits for them.
   *
   * @throws WriteStillRunningException when fewer replicas than asked acknowledged the write in time, or the
   *     connection broke before they did
   */
  Object run(UnifiedJedis redis, ScriptCall call, String what) {
    if (replicas == 0) {
      return call.run(redis);
    }
    LuaScript.Acknowledged done;
    try {
      done = call.script().runThenWait(redis, call.keys(), call.args(), replicas, timeout.toMillis());
    } catch (JedisConnectionException | IllegalStateException broken) {
      // Not repeated and not settled by reading: the master's copy is what a failover may discard. (A
      // cluster pipeline logs a broken node connection and leaves its answers unset: IllegalStateException.)
      throw new WriteStillRunningException("outbox store: " + what + ": the connection broke before " + replicas
          + " replicas acknowledged the write; it may or may not have been written", broken);
    }
    if (done.replicas() < replicas) {
      throw new WriteStillRunningException("outbox store: " + what + ": written on the master but acknowledged by "
          + done.replicas() + " of " + replicas + " replicas within " + timeout.toMillis() + " ms; a failover before"
          + " they catch up would undo it, so it is not counted as written", null);
    }
    return done.reply();
  }
}
