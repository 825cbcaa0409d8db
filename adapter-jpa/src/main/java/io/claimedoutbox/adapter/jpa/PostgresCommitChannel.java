package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.port.ListenState;
import io.claimedoutbox.port.spi.CoalescingRunner;
import io.claimedoutbox.port.spi.CommitSignal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits heard across JVMs on PostgreSQL: {@code NOTIFY} after an append commits, and a
 * {@code LISTEN}ing session per store object for the drains of its JVM.
 *
 * <p><b>Announcing.</b> The {@code NOTIFY} is sent after the business transaction committed, on a
 * pool connection of its own, by one background thread: the business transaction gets no extra
 * round trip and does not take the database-wide lock PostgreSQL takes at the commit of a
 * transaction with a pending notification, and announcements that pile up while one is sent
 * become one. Its payload names the sending store object, whose own drains were told in-process
 * and ignore their echo.
 *
 * <p><b>Listening.</b> One pool connection is held while any drain listens. A probe it sends itself
 * must come back within {@link #PROBE_TIMEOUT}: behind a transaction pooler (PgBouncer in
 * transaction mode) {@code LISTEN} is accepted and then never delivers, and the store then says
 * so once and leaves its drains to poll. A broken session is reopened after a pause that grows to
 * {@link #MAX_RECONNECT_PAUSE}. Each time the session starts listening the drains are woken once,
 * since commits made before were not heard.
 */
final class PostgresCommitChannel implements CommitSignal.RemoteCommits {

  private static final Logger LOG = LoggerFactory.getLogger(PostgresCommitChannel.class);

  static final String CHANNEL = "claimed_outbox_appended";
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(5);
  static final Duration MAX_RECONNECT_PAUSE = Duration.ofSeconds(5);
  private static final int WAIT_MILLIS = 500;

  private final JdbcAccess jdbc;
  /**
   * One announcement per burst of commits, at most one per 2 ms while they are sparse, widening to one
   * per 50 ms under a stream (the drains of other processes are then claiming anyway): a stream of
   * appends costs the server about 20 messages a second, not one per commit or per 2 ms.
   */
  static final Duration ANNOUNCE_INTERVAL = Duration.ofMillis(2);

  static final Duration MAX_ANNOUNCE_INTERVAL = Duration.ofMillis(50);

  private final String origin = UUID.randomUUID().toString();
  private volatile ListenState state = ListenState.IDLE;
  private final CoalescingRunner announcer = new CoalescingRunner(() -> notifyOthers(origin), "claimed-outbox-notify", ANNOUNCE_INTERVAL,
      MAX_ANNOUNCE_INTERVAL);

  PostgresCommitChannel(JdbcAccess jdbc) {
    this.jdbc = jdbc;
  }

  /** Tells other JVMs that entries were committed here; returns at once. */
  @Override
  public void announce() {
    announcer.request();
  }

  private void notifyOthers(String payload) {
    try {
      jdbc.autoCommitted(Repeat.SAFE, connection -> {
        try (PreparedStatement notify = connection.prepareStatement("SELECT pg_notify(?, ?)")) {
          notify.setString(1, CHANNEL);
          notify.setString(2, payload);
          notify.execute();
        }
        return null;
      });
    } catch (SQLException | RuntimeException failure) {
      // other JVMs poll: a lost announcement costs them latency, never an entry
      LOG.debug("Could not announce appended entries to other processes", failure);
    }
  }

  /** @return what the listening session is doing now */
  ListenState state() {
    return state;
  }

  /** Starts the listening session; {@code heard} is called for commits of other store objects. */
  @Override
  public AutoCloseable listen(Runnable heard) {
    state = ListenState.STARTING;
    Listener listener = new Listener(heard);
    Thread thread = daemon(listener, "claimed-outbox-listen");
    listener.thread = thread;
    thread.start();
    return listener;
  }

  private final class Listener implements Runnable, AutoCloseable {
    private final Runnable heard;
    private final String probe = "probe-" + UUID.randomUUID();
    private volatile boolean closed;
    private volatile Connection connection;
    private Thread thread;
    private boolean warnedBroken;

    Listener(Runnable heard) {
      this.heard = heard;
    }

    @Override
    public void run() {
      long pauseMillis = 100;
      while (!closed) {
        try {
          connection = jdbc.dedicated();
          try (Statement listen = connection.createStatement()) {
            listen.execute("LISTEN " + CHANNEL);
          }
          if (!probeComesBack()) {
            state = ListenState.POLLING_ONLY;
            LOG.warn("PostgreSQL accepted LISTEN {} but delivers no notifications (a transaction pooler such as"
                + " PgBouncer in transaction mode?): drains of this store poll only", CHANNEL);
            return;
          }
          if (warnedBroken) {
            LOG.info("Listening for appended entries again ({})", CHANNEL);
          }
          state = ListenState.LISTENING;
          // commits made before the session listened were not heard: one wake-up covers them
          heard.run();
          warnedBroken = false;
          pauseMillis = 100;
          relay();
        } catch (SQLException | RuntimeException broken) {
          if (closed) {
            return;
          }
          state = ListenState.BROKEN;
          if (!warnedBroken) {
            LOG.warn("The session listening for appended entries broke; drains poll until it is back: {}",
                broken.toString());
            warnedBroken = true;
          }
        } finally {
          Connection used = connection;
          connection = null;
          if (used != null) {
            jdbc.giveBack(used);
          }
        }
        if (!pause(pauseMillis)) {
          return;
        }
        pauseMillis = Math.min(pauseMillis * 2, MAX_RECONNECT_PAUSE.toMillis());
      }
    }

    private boolean probeComesBack() throws SQLException {
      notifyOthers(probe);
      PGConnection session = connection.unwrap(PGConnection.class);
      long deadline = System.nanoTime() + PROBE_TIMEOUT.toNanos();
      while (System.nanoTime() < deadline && !closed) {
        PGNotification[] notes = session.getNotifications(WAIT_MILLIS);
        if (notes != null) {
          for (PGNotification note : notes) {
            if (probe.equals(note.getParameter())) {
              return true;
            }
          }
        }
      }
      return false;
    }

    private void relay() throws SQLException {
      PGConnection session = connection.unwrap(PGConnection.class);
      while (!closed) {
        // waits on the socket, so a notification is relayed the moment it arrives and a cut session
        // fails this read; the bounded wait only lets a close be noticed
        PGNotification[] notes = session.getNotifications(WAIT_MILLIS);
        if (notes != null && fromElsewhere(notes)) {
          heard.run();
        }
      }
    }

    private boolean fromElsewhere(PGNotification[] notes) {
      for (PGNotification note : notes) {
        String from = note.getParameter();
        if (!origin.equals(from) && !from.startsWith("probe-")) {
          return true;
        }
      }
      return false;
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
      state = ListenState.IDLE;
      if (thread != null) {
        thread.interrupt();
      }
    }
  }

  private static Thread daemon(Runnable runnable, String name) {
    Thread thread = new Thread(runnable, name);
    thread.setDaemon(true);
    return thread;
  }
}
