package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

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

  /**
   * The claim a listener takes an entry with as it is appended: the entry is written claimed by
   * {@code worker} for {@code lease} from the append, exactly as {@link OutboxClaimStore#claimDue}
   * would have claimed it then.
   *
   * @param worker who holds the claim
   * @param lease how long others must wait
   */
  record ClaimOnAppend(WorkerId worker, Duration lease) {

    /** Checks the arguments. */
    public ClaimOnAppend {
      Arguments.requireNonNull(worker, "worker");
      Arguments.requirePositive(lease, "lease");
    }
  }

  /** Hears commits of appended entries. */
  @FunctionalInterface
  interface Listener {

    /**
     * Entries were committed.
     *
     * @param appended the committed entries as appended, when the store knows them (its own
     *     appends in this JVM); empty when it does not (a commit heard from another process, or a
     *     caller's commit reported without them): then only "something was committed" is known.
     *     An entry a listener took on append ({@link #takeOnAppend}) is among them as written,
     *     {@code CLAIMED} by that listener's worker; every listener hears it, only that one may
     *     act on the claim.
     */
    void entriesCommitted(List<OutboxEntry> appended);

    /**
     * Offers an entry about to be appended, in a transaction whose outcome the store will report
     * ({@link StoreCapability#CLAIM_ON_APPEND}): a listener with room takes it, and the store then
     * writes it already claimed on the returned terms. The store reports the outcome exactly once:
     * {@link #entriesCommitted} with the claimed entry, or {@link #notCommitted}. The listener must
     * answer at once (the appending transaction waits) and keep room for the entry until then.
     * The default takes nothing.
     *
     * @param entry the entry as it would be appended ({@code PENDING}, due, without an ordering
     *     key)
     * @return the terms it is claimed on, or empty to leave it {@code PENDING}
     */
    default Optional<ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
      return Optional.empty();
    }

    /**
     * An entry taken on append will not be committed (the transaction rolled back, or the append
     * failed): the room kept for it is free again. Every listener hears it; only the one whose
     * worker holds the claim acts. When a failed write's outcome was unknown, the entry may exist
     * after all, claimed: its lease then runs out and any drain takes it, as after a crash.
     *
     * @param written the entry as it would have been written, claimed
     */
    default void notCommitted(OutboxEntry written) {}
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
