package io.claimedoutbox.port.spi;

import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The {@link CommitNotifications} of one store object: the store calls {@link #committed()} after
 * each commit of appended entries it sees, and every subscriber of this JVM hears it. A store whose
 * backend can push commits made elsewhere passes a {@link RemoteCommits} source: it is started
 * with the first subscriber and stopped with the last, so a store only appended to listens to
 * nothing.
 *
 * <p>A store that sees the outcome of an append ({@link io.claimedoutbox.port.StoreCapability#CLAIM_ON_APPEND})
 * writes through {@link #appendCommitted} (a transaction of its own) or {@link #appendUncommitted}
 * (the caller's transaction, whose end the store reports): both offer the entries to the drains
 * first, write what the offer returns, and report a failed write as {@link #notCommitted}, so the
 * order offer → write → report is written once, here. A store whose one append is several commits
 * (Redis, one script per shard) uses the steps themselves: {@link #claimOnAppend} before it writes,
 * then {@link #committed(List)} and {@link #notCommitted} for what did and did not commit, each
 * entry exactly once.
 *
 * <p>Thread-safe. A listener that throws is logged and does not keep the others from hearing.
 */
public final class CommitSignal implements CommitNotifications {

  private static final System.Logger LOG = System.getLogger(CommitSignal.class.getName());

  /** A backend's push channel for commits: what other processes commit, and ours told to them. */
  @FunctionalInterface
  public interface RemoteCommits {

    /**
     * Starts listening; {@code heard} is called for every commit heard (duplicates are fine).
     *
     * @param heard what to call for a commit made elsewhere
     * @return what stops the listening
     */
    AutoCloseable listen(Runnable heard);

    /**
     * Tells other processes that entries were committed here. Called on the committing thread after
     * every commit other processes could claim something from, so it must not block: a channel
     * coalesces and sends from a thread of its own, and a lost announcement costs the other
     * processes latency, never an entry (they poll). The default announces nothing: for a backend
     * whose listeners hear the writes themselves (MongoDB's change streams).
     */
    default void announce() {}
  }

  /**
   * The write of an append's entries, exactly as given: in a transaction of the store's own, or in
   * the caller's.
   *
   * @param <E> what the backend's write may throw
   */
  @FunctionalInterface
  public interface EntryWrite<E extends Exception> {

    /**
     * @param entries the entries to write, some of them claimed on append
     * @throws E when the backend fails; nothing is then reported as committed
     */
    void write(List<OutboxEntry> entries) throws E;
  }

  private final CopyOnWriteArrayList<Listener> listeners = new CopyOnWriteArrayList<>();
  /** Where the next offer starts, so that the drains of one JVM share the appends between them. */
  private final AtomicInteger nextTaker = new AtomicInteger();
  private final RemoteCommits remote;
  /** Hears the claims taken on append whose commit was reported, once per commit; {@code null} for nobody. */
  private final Consumer<List<Claim>> claimsCommitted;
  /** Whether anybody hears {@link #claimsCommitted} now. */
  private final BooleanSupplier claimsHeard;
  private AutoCloseable listening;

  private CommitSignal(RemoteCommits remote, Consumer<List<Claim>> claimsCommitted, BooleanSupplier claimsHeard) {
    this.remote = remote;
    this.claimsCommitted = claimsCommitted;
    this.claimsHeard = claimsHeard;
  }

  /** @return a signal heard in this JVM only */
  public static CommitSignal local() {
    return new CommitSignal(null, null, () -> false);
  }

  /**
   * @param remote the backend's channel for commits of other processes
   * @return a signal that also relays what {@code remote} hears
   */
  public static CommitSignal withRemote(RemoteCommits remote) {
    return new CommitSignal(Arguments.requireNonNull(remote, "remote"), null, () -> false);
  }

  /**
   * This signal, also telling {@code sink} once per reported commit the claims taken on append
   * that it committed (never for a commit without any). Call it before anybody subscribes. The sink
   * is asked only while {@code listening} says somebody hears it, so a store nobody observes pays
   * nothing per commit.
   *
   * @param sink what hears the committed claims; it runs on the committing thread
   * @param listening whether anybody hears the sink now
   * @return the signal to use instead of this one
   */
  public CommitSignal reportingClaims(Consumer<List<Claim>> sink, BooleanSupplier listening) {
    return new CommitSignal(remote, Arguments.requireNonNull(sink, "sink"),
        Arguments.requireNonNull(listening, "listening"));
  }

  /**
   * Tells every subscriber, and other processes where the signal has a remote channel, that entries
   * were committed, without saying which.
   */
  public void committed() {
    committed(List.of());
  }

  /**
   * Tells every subscriber that {@code appended} were committed, and other processes too (through
   * the remote channel, when there is one) unless every one of them was claimed on append (then
   * each is already a drain's, and other processes would find nothing to claim). Cheap when nobody
   * listens.
   *
   * @param appended the entries as written
   */
  public void committed(List<OutboxEntry> appended) {
    if (claimsCommitted != null && claimsHeard.getAsBoolean()) {
      reportClaims(appended);
    }
    tellSubscribers(appended);
    if (remote != null && concernsOtherProcesses(appended)) {
      remote.announce();
    }
  }

  /**
   * Appends in a transaction of the store's own: offers {@code fresh} to the drains of this JVM
   * ({@link #claimOnAppend}), writes what the offer returns with {@code write}, and reports the
   * outcome: {@link #committed(List)} once the write returned, {@link #notCommitted} when it threw
   * (the failure is rethrown as it came).
   *
   * @param fresh the new entries, as appended
   * @param now the append's time
   * @param write the backend's write, which commits before it returns
   * @param <E> what the write may throw
   * @return the entries as written, in the order given
   * @throws E when the write fails
   */
  public <E extends Exception> List<OutboxEntry> appendCommitted(List<OutboxEntry> fresh, Instant now,
      EntryWrite<E> write) throws E {
    List<OutboxEntry> written = appendUncommitted(fresh, now, write);
    committed(written);
    return written;
  }

  /**
   * Appends in a transaction the caller ends: offers {@code fresh} to the drains of this JVM, writes
   * what the offer returns with {@code write}, and reports {@link #notCommitted} when the write
   * throws (rethrowing the failure). Once the write returned, the store reports the transaction's
   * end with the entries returned here: {@link #committed(List)} or {@link #notCommitted}, exactly
   * once (a drain that took an entry keeps room for it until then).
   *
   * @param fresh the new entries, as appended
   * @param now the append's time
   * @param write the backend's write into the caller's transaction
   * @param <E> what the write may throw
   * @return the entries as written, in the order given
   * @throws E when the write fails
   */
  public <E extends Exception> List<OutboxEntry> appendUncommitted(List<OutboxEntry> fresh, Instant now,
      EntryWrite<E> write) throws E {
    List<OutboxEntry> written = claimOnAppend(fresh, now);
    try {
      write.write(written);
    } catch (Throwable failure) {
      notCommitted(written);
      throw failure;
    }
    return written;
  }

  private void tellSubscribers(List<OutboxEntry> appended) {
    for (Listener listener : listeners) {
      try {
        listener.entriesCommitted(appended);
      } catch (RuntimeException failure) {
        LOG.log(System.Logger.Level.WARNING, "A commit listener failed; the others were told", failure);
      }
    }
  }

  private void reportClaims(List<OutboxEntry> appended) {
    List<Claim> claims = null;
    for (OutboxEntry entry : appended) {
      if (entry.currentClaim().isPresent()) {
        if (claims == null) {
          claims = new ArrayList<>();
        }
        claims.add(Claim.of(entry));
      }
    }
    if (claims == null) {
      return;
    }
    try {
      claimsCommitted.accept(claims);
    } catch (RuntimeException failure) {
      LOG.log(System.Logger.Level.WARNING, "Reporting claims committed on append failed; the drains are told", failure);
    }
  }

  /**
   * Offers the entries of an append to the drains of this JVM ({@link Listener#takeOnAppend}) and
   * returns them as they are to be written: each one a drain took, claimed by it; the others as
   * given. Only due entries without an ordering key are offered (which entry of a key comes first
   * is the due query's to decide). Cheap when nobody listens.
   *
   * @param appended the entries about to be written, as appended
   * @param now the append's time
   * @return the entries to write, in the same order
   */
  public List<OutboxEntry> claimOnAppend(List<OutboxEntry> appended, Instant now) {
    if (listeners.isEmpty()) {
      return appended;
    }
    List<Listener> takers = List.copyOf(listeners);
    List<OutboxEntry> written = new ArrayList<>(appended.size());
    for (OutboxEntry entry : appended) {
      written.add(entry.message().orderingKey().isEmpty() && entry.isDue(now) ? offer(takers, entry, now) : entry);
    }
    return written;
  }

  private OutboxEntry offer(List<Listener> takers, OutboxEntry entry, Instant now) {
    int first = Math.floorMod(nextTaker.getAndIncrement(), takers.size());
    for (int i = 0; i < takers.size(); i++) {
      Optional<ClaimOnAppend> terms;
      try {
        terms = takers.get((first + i) % takers.size()).takeOnAppend(entry);
      } catch (RuntimeException failure) {
        LOG.log(System.Logger.Level.WARNING, "A commit listener failed to answer an offer; the entry stays pending",
            failure);
        continue;
      }
      if (terms.isPresent()) {
        return entry.claimedBy(terms.get().worker(), now, terms.get().lease(), WriteStamp.fresh());
      }
    }
    return entry;
  }

  /**
   * Tells every subscriber that the append of {@code written} (as {@link #claimOnAppend} returned
   * them) did not commit, so the drains that took some keep no room for them.
   *
   * @param written the entries as they would have been written
   */
  public void notCommitted(List<OutboxEntry> written) {
    for (OutboxEntry entry : written) {
      if (entry.currentClaim().isEmpty()) {
        continue;
      }
      for (Listener listener : listeners) {
        try {
          listener.notCommitted(entry);
        } catch (RuntimeException failure) {
          LOG.log(System.Logger.Level.WARNING, "A commit listener failed; the others were told", failure);
        }
      }
    }
  }

  /**
   * Whether other processes should hear of a commit: unless every committed entry was claimed on
   * append (then it is already a drain's, and they would find nothing to claim). A commit reported
   * without its entries always is worth telling.
   *
   * @param committed the committed entries as written, or empty when they are not known
   * @return whether to announce the commit across processes
   */
  private static boolean concernsOtherProcesses(List<OutboxEntry> committed) {
    return committed.isEmpty() || committed.stream().anyMatch(entry -> entry.currentClaim().isEmpty());
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
        // what others committed is told to this JVM's drains only: announcing it back would echo
        listening = remote.listen(() -> tellSubscribers(List.of()));
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
