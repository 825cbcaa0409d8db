package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import java.util.List;

/**
 * Tells a drain that entries were committed, so that it claims at once instead of at its next
 * poll: a latency hint, never a guarantee. A notification may come late, twice, for entries another
 * drain has already taken, or not at all (a cut connection, a pooler that cannot listen); a drain
 * therefore keeps polling and treats a notification only as "a claim now may find something".
 *
 * <p>Stores signal the drains in their own JVM after a commit they can see (their own appends, and
 * appends joined to a transaction whose completion they can observe), and where the backend has a
 * push channel they also hear commits made by other JVMs. {@link #NONE} is the store that has
 * neither.
 */
public interface CommitNotifications {

  /** Notifications that never come: the drain polls only. */
  CommitNotifications NONE = listener -> {
    Arguments.requireNonNull(listener, "listener");
    return () -> { };
  };

  /** Hears commits of appended entries. */
  @FunctionalInterface
  interface Listener {

    /**
     * Entries were committed.
     *
     * @param appended the committed entries as appended, when the store knows them (its own
     *     appends in this JVM); empty when it does not (a commit heard from another process, or a
     *     caller's commit reported without them): then only "something was committed" is known
     */
    void entriesCommitted(List<OutboxEntry> appended);
  }

  /**
   * Calls {@code listener} after each commit of appended entries, until the subscription is closed.
   * A drain may claim the entries it is given with {@link OutboxClaimStore#claimAppended}: one
   * conditional write instead of a due query.
   * The listener runs on the committing thread or on a thread of the store; it must return at once
   * (set a flag, schedule work) and it is never called while the commit it reports is undecided.
   * A rolled-back append notifies nothing.
   *
   * @param listener what to call; not {@code null}
   * @return the subscription; closing it twice is harmless
   */
  Subscription subscribe(Listener listener);

  /** An active {@link #subscribe subscription}. */
  interface Subscription extends AutoCloseable {

    /** Stops the notifications; the listener may still be running once, never again after that. */
    @Override
    void close();
  }
}
