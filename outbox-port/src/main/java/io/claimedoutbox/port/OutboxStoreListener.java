package io.claimedoutbox.port;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.OutboxEntry;
import java.util.List;
import java.util.Optional;

/**
 * Hears every call a store makes — claims, transitions, appends, finds, deletes — from the store
 * itself, once per call, with what it answered or how it failed and how long it took: the one way
 * metrics, traces, logs and test recorders observe a store ({@link OutboxClaimOutcomeStore#listen}).
 * Since no decorator stands between the caller and the store, whatever else the store offers
 * ({@link OutboxOperations}, commit notifications, an adapter's own methods) stays reachable.
 *
 * <p>What a listener may rely on: {@link #starting} runs on the calling thread after the call's
 * arguments were checked and before any I/O; the {@link CallListener} it returns hears exactly one
 * of its methods, on the same thread, once the call has answered or thrown (an argument the store
 * rejects reaches no listener). A transition batch is one call: its results come in one list, in
 * the batch's order. A listener that throws is logged and changes nothing: the call's answer and
 * the other listeners stay as they were. Listeners must be thread-safe and quick: they run inside
 * every store call.
 */
@FunctionalInterface
public interface OutboxStoreListener {

  /**
   * A call starts.
   *
   * @param call what is asked
   * @return what hears how it ends; {@link CallListener#NONE} when this listener does not care
   */
  CallListener starting(StoreCall call);

  /**
   * Hears how one call ended: exactly one method, once. Durations are the call's wall time in
   * nanoseconds, from just before {@link #starting} returned to just after the store answered.
   */
  interface CallListener {

    /** Hears nothing. */
    CallListener NONE = new CallListener() {};

    /**
     * A claim call answered.
     *
     * @param claims the claims handed out, possibly none
     * @param nanos how long the call took
     */
    default void claimed(List<Claim> claims, long nanos) {}

    /**
     * A transition call answered.
     *
     * @param results one per transition asked, in order
     * @param nanos how long the call took
     */
    default void transitioned(List<ClaimTransitionResult> results, long nanos) {}

    /**
     * An append answered: written, or (inside a caller's transaction) to be written at its commit.
     *
     * @param entries the entries as appended
     * @param nanos how long the call took
     */
    default void appended(List<OutboxEntry> entries, long nanos) {}

    /**
     * A find answered.
     *
     * @param entry the entry found, empty when none is stored
     * @param nanos how long the call took
     */
    default void found(Optional<OutboxEntry> entry, long nanos) {}

    /**
     * A delete answered.
     *
     * @param existed whether there was an entry to delete
     * @param nanos how long the call took
     */
    default void deleted(boolean existed, long nanos) {}

    /**
     * The call threw {@code failure}, which its caller now gets unchanged.
     *
     * @param failure what the call threw
     * @param nanos how long the call took
     */
    default void failed(RuntimeException failure, long nanos) {}
  }

  /** A listener's {@linkplain OutboxClaimOutcomeStore#listen registration}. */
  interface Registration extends AutoCloseable {

    /** Stops the listener hearing calls that start from now on; closing twice is harmless. */
    @Override
    void close();
  }
}
