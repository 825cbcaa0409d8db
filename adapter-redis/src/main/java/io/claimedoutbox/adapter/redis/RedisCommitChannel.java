package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.port.spi.CoalescingRunner;
import io.claimedoutbox.port.spi.CommitSignal;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Connection;
import redis.clients.jedis.JedisCluster;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.JedisPubSub;
import redis.clients.jedis.JedisShardedPubSub;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Commits heard across JVMs on Redis: a {@code PUBLISH} after an append (a sharded
 * {@code SPUBLISH} on a Cluster, so the message goes to one shard's nodes only) and a subscription
 * per store object while a drain of it runs.
 *
 * <p>The publish is sent by one background thread, after the append returned: the append gets no
 * extra round trip, and publishes asked for while one is sent become one. Its message names the
 * sending store object, whose own drains were told in-process and ignore their echo. Redis pub/sub
 * delivers at most once and only to connected subscribers: a subscription that broke is opened
 * again after a pause growing to {@link #MAX_RECONNECT_PAUSE}, and each time a subscription starts
 * the drains are woken once, since appends made before it were not heard.
 */
final class RedisCommitChannel implements CommitSignal.RemoteCommits {

  private static final Logger LOG = LoggerFactory.getLogger(RedisCommitChannel.class);
  static final Duration MAX_RECONNECT_PAUSE = Duration.ofSeconds(5);

  private final UnifiedJedis redis;
  private final String channel;
  /**
   * One announcement per burst of commits, at most one per 2 ms while they are sparse, widening to one
   * per 50 ms under a stream (the drains of other processes are then claiming anyway): a stream of
   * appends costs the server about 20 messages a second, not one per commit or per 2 ms.
   */
  static final Duration ANNOUNCE_INTERVAL = Duration.ofMillis(2);

  static final Duration MAX_ANNOUNCE_INTERVAL = Duration.ofMillis(50);

  private final String origin = UUID.randomUUID().toString();
  private final CoalescingRunner announcer = new CoalescingRunner(this::publish, "claimed-outbox-publish", ANNOUNCE_INTERVAL,
      MAX_ANNOUNCE_INTERVAL);

  RedisCommitChannel(UnifiedJedis redis, String channel) {
    this.redis = redis;
    this.channel = channel;
  }

  /** Tells other JVMs that entries were appended here; returns at once. */
  @Override
  public void announce() {
    announcer.request();
  }

  private void publish() {
    try {
      if (redis instanceof JedisCluster cluster) {
        cluster.spublish(channel, origin);
      } else {
        redis.publish(channel, origin);
      }
    } catch (JedisException failure) {
      // other JVMs poll: a lost announcement costs them latency, never an entry
      LOG.debug("Could not announce appended entries to other processes", failure);
    }
  }

  /** Subscribes; {@code heard} is called for appends of other store objects. */
  @Override
  public AutoCloseable listen(Runnable heard) {
    Subscriber subscriber = new Subscriber(heard);
    Thread thread = new Thread(subscriber, "claimed-outbox-subscribe");
    thread.setDaemon(true);
    thread.start();
    return subscriber;
  }

  private final class Subscriber implements Runnable, AutoCloseable {
    private final Runnable heard;
    private final JedisPubSub plain = new JedisPubSub() {
      @Override
      public void onMessage(String from, String message) {
        relay(message);
      }

      @Override
      public void onSubscribe(String name, int subscribed) {
        subscribed();
      }
    };
    private final JedisShardedPubSub sharded = new JedisShardedPubSub() {
      @Override
      public void onSMessage(String from, String message) {
        relay(message);
      }

      @Override
      public void onSSubscribe(String name, int subscribed) {
        subscribed();
      }
    };
    private volatile boolean closed;
    private boolean broken;

    Subscriber(Runnable heard) {
      this.heard = heard;
    }

    private void relay(String message) {
      if (!origin.equals(message)) {
        heard.run();
      }
    }

    private void subscribed() {
      if (broken) {
        LOG.info("Subscribed to appended entries again ({})", channel);
        broken = false;
      }
      // appends made before the subscription were not heard: one wake-up covers them
      heard.run();
    }

    @Override
    public void run() {
      long pauseMillis = 100;
      while (!closed) {
        try (Connection connection = subscriptionConnection()) {
          try {
            if (redis instanceof JedisCluster) {
              sharded.proceed(connection, channel);
            } else {
              plain.proceed(connection, channel);
            }
          } finally {
            // a connection that was subscribed never goes back to the pool: a message the server
            // sent before it saw the unsubscribe would be read as the next command's answer
            connection.setBroken();
          }
          pauseMillis = 100;
        } catch (JedisException failure) {
          if (closed) {
            return;
          }
          if (!broken) {
            LOG.warn("The subscription to appended entries broke; drains poll until it is back: {}", failure.toString());
            broken = true;
          }
        }
        if (closed || !pause(pauseMillis)) {
          return;
        }
        pauseMillis = Math.min(pauseMillis * 2, MAX_RECONNECT_PAUSE.toMillis());
      }
    }

    private Connection subscriptionConnection() {
      if (redis instanceof JedisCluster cluster) {
        return cluster.getConnectionFromSlot(JedisClusterCRC16.getSlot(channel));
      }
      if (redis instanceof JedisPooled pooled) {
        return pooled.getPool().getResource();
      }
      throw new IllegalStateException("no connection of its own for a subscription from a " + redis.getClass().getName());
    }

    private boolean pause(long millis) {
      try {
        Thread.sleep(millis);
        return !closed;
      } catch (InterruptedException interrupted) {
        return false;
      }
    }

    @Override
    public void close() {
      closed = true;
      try {
        if (plain.isSubscribed()) {
          plain.unsubscribe();
        }
        if (sharded.isSubscribed()) {
          sharded.sunsubscribe();
        }
      } catch (JedisException alreadyGone) {
        // the subscription's connection is broken: the thread ends on its own
      }
    }
  }
}
