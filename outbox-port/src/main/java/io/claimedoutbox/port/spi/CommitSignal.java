package io.claimedoutbox.port.spi;

import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The {@link CommitNotifications} of one store object: the store calls {@link #committed()} after
 * each commit of appended entries it sees, and every subscriber of this JVM hears it. A store whose
 * backend can push commits made elsewhere passes a {@link RemoteCommits} source: it is started
 * with the first subscriber and stopped with the last, so a store only appended to listens to
 * nothing.
 *
 * <p>Thread-safe. A listener that throws is logged and does not keep the others from hearing.
 */
public final class CommitSignal implements CommitNotifications {

  private static final System.Logger LOG = System.getLogger(CommitSignal.class.getName());

  /** A backend's push channel for commits made by other processes. */
  @FunctionalInterface
  public interface RemoteCommits {

    /**
     * Starts listening; {@code heard} is called for every commit heard (duplicates are fine).
     *
     * @param heard what to call for a commit made elsewhere
     * @return what stops the listening
     */
    AutoCloseable listen(Runnable heard);
  }

  private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();
  private final RemoteCommits remote;
  private AutoCloseable listening;

  private CommitSignal(RemoteCommits remote) {
    this.remote = remote;
  }

  /** @return a signal heard in this JVM only */
  public static CommitSignal local() {
    return new CommitSignal(null);
  }

  /**
   * @param remote the backend's channel for commits of other processes
   * @return a signal that also relays what {@code remote} hears
   */
  public static CommitSignal withRemote(RemoteCommits remote) {
    return new CommitSignal(Arguments.requireNonNull(remote, "remote"));
  }

  /** Tells every subscriber that entries were committed, without saying which. */
  public void committed() {
    committed(List.of());
  }

  /**
   * Tells every subscriber that {@code appended} were committed. Cheap when nobody listens.
   *
   * @param appended the entries as appended
   */
  public void committed(List<OutboxEntry> appended) {
    for (Listener listener : listeners) {
      try {
        listener.entriesCommitted(appended);
      } catch (RuntimeException failure) {
        LOG.log(System.Logger.Level.WARNING, "A commit listener failed; the others were told", failure);
      }
    }
  }

  /** @return whether anybody in this JVM listens now */
  public boolean hasSubscribers() {
    return !listeners.isEmpty();
  }

  @Override
  public Subscription subscribe(Listener listener) {
    Arguments.requireNonNull(listener, "listener");
    synchronized (this) {
      listeners.add(listener);
      if (remote != null && listening == null) {
        listening = remote.listen(this::committed);
      }
    }
    return new Subscription() {
      private boolean closed;

      @Override
      public void close() {
        synchronized (CommitSignal.this) {
          if (closed) {
            return;
          }
          closed = true;
          listeners.remove(listener);
          if (listeners.isEmpty() && listening != null) {
            stopListening();
          }
        }
      }
    };
  }

  private void stopListening() {
    AutoCloseable stopping = listening;
    listening = null;
    try {
      stopping.close();
    } catch (Exception failure) {
      LOG.log(System.Logger.Level.WARNING, "Stopping to listen for commits failed", failure);
    }
  }
}
