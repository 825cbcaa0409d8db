package io.claimedoutbox.adapter.mongodb;

import com.mongodb.MongoException;
import com.mongodb.client.MongoChangeStreamCursor;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.changestream.ChangeStreamDocument;
import com.mongodb.connection.ClusterType;
import io.claimedoutbox.port.ListenState;
import io.claimedoutbox.port.spi.CommitSignal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bson.Document;

/**
 * Commits heard across JVMs on MongoDB: a change stream on the outbox collection, watching
 * inserts, while a drain of the store object runs. Inserts are written by the appending
 * transaction, so the stream reports them only once committed; nothing extra is sent by the
 * appender.
 *
 * <p>Change streams need a replica set (or a sharded cluster); a standalone server and the
 * in-process stand-in have none, which the channel finds out once from the driver's view of the
 * deployment, says once at
 * INFO, and then leaves the drains polling ({@link ListenState#POLLING_ONLY}). A stream that broke
 * is opened again after a pause growing to {@link #MAX_RECONNECT_PAUSE}, and each time a stream
 * starts the drains are woken once, since inserts made before it were not heard. A process hears
 * its own inserts too: its drains were already told in-process, and the echo costs them at most
 * one claim per burst, which their wake-up coalescing absorbs.
 */
final class MongoCommitChannel implements CommitSignal.RemoteCommits {

  // the adapter logs through the platform logger, as the port does: it needs no logging dependency
  private static final System.Logger LOG = System.getLogger(MongoCommitChannel.class.getName());
  static final Duration MAX_RECONNECT_PAUSE = Duration.ofSeconds(5);
  /**
   * How long one {@code getMore} of an idle stream waits on the server: the idle stream costs one
   * command per this, and a closed channel's thread ends within it.
   */
  static final Duration IDLE_WAIT = Duration.ofSeconds(5);

  private final MongoClient client;
  private final MongoDatabase database;
  private final MongoCollection<Document> collection;
  private volatile ListenState state = ListenState.IDLE;

  MongoCommitChannel(MongoClient client, MongoDatabase database, MongoCollection<Document> collection) {
    this.client = client;
    this.database = database;
    this.collection = collection;
  }

  /** @return what the watching thread is doing now */
  ListenState state() {
    return state;
  }

  /** Starts watching; {@code heard} is called for inserts committed by anyone. */
  @Override
  public AutoCloseable listen(Runnable heard) {
    state = ListenState.STARTING;
    Watcher watcher = new Watcher(heard);
    Thread thread = new Thread(watcher, "claimed-outbox-watch");
    thread.setDaemon(true);
    thread.start();
    return watcher;
  }

  /**
   * @return whether the deployment offers change streams: a replica set or a sharded cluster, as
   *     the driver classified it once a command reached the server
   */
  static boolean hasChangeStreams(MongoClient client, MongoDatabase database) {
    database.runCommand(new Document("ping", 1));
    ClusterType type = client.getClusterDescription().getType();
    return type == ClusterType.REPLICA_SET || type == ClusterType.SHARDED;
  }

  private final class Watcher implements Runnable, AutoCloseable {
    private final Runnable heard;
    private volatile boolean closed;
    private boolean warnedBroken;

    Watcher(Runnable heard) {
      this.heard = heard;
    }

    @Override
    public void run() {
      long pauseMillis = 100;
      while (!closed) {
        try {
          if (!hasChangeStreams(client, database)) {
            enter(ListenState.POLLING_ONLY);
            LOG.log(System.Logger.Level.INFO, "MongoDB (database {0}) is not a replica set, so it has no change"
                + " streams: drains of this store find entries appended by other processes by polling",
                database.getName());
            return;
          }
          watch();
          pauseMillis = 100;
        } catch (MongoException broken) {
          if (closed) {
            return;
          }
          enter(ListenState.BROKEN);
          if (!warnedBroken) {
            LOG.log(System.Logger.Level.WARNING, "The change stream watching for appended entries broke; drains"
                + " poll until it is back: {0}", broken.toString());
            warnedBroken = true;
          }
        }
        if (closed || !pause(pauseMillis)) {
          return;
        }
        pauseMillis = Math.min(pauseMillis * 2, MAX_RECONNECT_PAUSE.toMillis());
      }
    }

    private void watch() {
      // the event's _id is its resume token and must stay; nothing else of the document is needed
      List<org.bson.conversions.Bson> pipeline = List.of(Aggregates.match(Filters.eq("operationType", "insert")),
          Aggregates.project(Projections.include("operationType")));
      try (MongoChangeStreamCursor<ChangeStreamDocument<Document>> cursor = collection.watch(pipeline)
          .maxAwaitTime(IDLE_WAIT.toMillis(), TimeUnit.MILLISECONDS).cursor()) {
        if (warnedBroken) {
          LOG.log(System.Logger.Level.INFO, "Watching for appended entries again ({0})", collection.getNamespace());
          warnedBroken = false;
        }
        enter(ListenState.LISTENING);
        // inserts made before the stream opened were not heard: one wake-up covers them
        relay();
        while (!closed) {
          if (cursor.tryNext() != null) {
            relay();
          }
        }
      }
    }

    /** A closed watcher's last steps do not overwrite the state a newer one reports. */
    private void enter(ListenState next) {
      if (!closed) {
        state = next;
      }
    }

    private void relay() {
      if (!closed) {
        heard.run();
      }
    }

    private boolean pause(long millis) {
      try {
        Thread.sleep(millis);
        return !closed;
      } catch (InterruptedException interrupted) {
        return false;
      }
    }

    /** Returns at once; the thread ends within {@link #IDLE_WAIT} and relays nothing more. */
    @Override
    public void close() {
      closed = true;
      state = ListenState.IDLE;
    }
  }
}
