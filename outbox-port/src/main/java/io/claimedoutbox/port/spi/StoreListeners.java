package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.OutboxStoreListener.CallListener;
import io.claimedoutbox.port.StoreCall;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.WorkerId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The listeners of one store and the one place they are called from: a call with no listener costs
 * one read of an empty list; a listener that throws is logged and changes nothing.
 * {@link KernelOutboxStore} holds one; a store written by hand (the conformance suite's reference
 * store) holds one too and runs each public call through {@link #run}. Thread-safe.
 */
public final class StoreListeners {

  private static final System.Logger LOG = System.getLogger(StoreListeners.class.getName());

  /**
   * How a call's answer reaches a {@link CallListener}: {@code CallListener::claimed} and the like.
   *
   * @param <T> the call's answer
   */
  @FunctionalInterface
  public interface Answer<T> {
    /**
     * @param listener who hears it
     * @param answer what the call answered
     * @param nanos how long it took
     */
    void tell(CallListener listener, T answer, long nanos);
  }

  private final CopyOnWriteArrayList<OutboxStoreListener> listeners = new CopyOnWriteArrayList<>();

  /**
   * @param listener what to call from now on
   * @return its registration, as {@link io.claimedoutbox.port.OutboxClaimOutcomeStore#listen} returns it
   */
  public OutboxStoreListener.Registration add(OutboxStoreListener listener) {
    OutboxStoreListener added = Arguments.requireNonNull(listener, "listener");
    // a wrapper of its own, so one listener registered twice is two registrations
    OutboxStoreListener registered = added::starting;
    listeners.add(registered);
    return () -> listeners.remove(registered);
  }

  /** @return whether a call now would tell anybody */
  public boolean isEmpty() {
    return listeners.isEmpty();
  }

  /**
   * Runs {@code work} as {@code call}, telling every listener how it started and ended.
   *
   * @param <T> what the call answers
   * @param call the call, built only when somebody listens
   * @param work the call's work, arguments checked
   * @param answer how its answer reaches a listener
   * @return what {@code work} returned; what it threw is rethrown unchanged
   */
  public <T> T run(Supplier<StoreCall> call, Supplier<T> work, Answer<T> answer) {
    if (listeners.isEmpty()) {
      return work.get();
    }
    StoreCall started = call.get();
    List<CallListener> hearing = starting(started);
    long begun = System.nanoTime();
    T result;
    try {
      result = work.get();
    } catch (RuntimeException failure) {
      long nanos = System.nanoTime() - begun;
      hearing.forEach(listener -> tell(started, () -> listener.failed(failure, nanos)));
      throw failure;
    }
    long nanos = System.nanoTime() - begun;
    hearing.forEach(listener -> tell(started, () -> answer.tell(listener, result, nanos)));
    return result;
  }

  /**
   * Tells every listener of a call that has already answered, with no time spent in it.
   *
   * @param <T> what the call answered
   * @param call the call
   * @param result its answer
   * @param answer how the answer reaches a listener
   */
  public <T> void heard(StoreCall call, T result, Answer<T> answer) {
    if (listeners.isEmpty()) {
      return;
    }
    starting(call).forEach(listener -> tell(call, () -> answer.tell(listener, result, 0)));
  }

  /**
   * Tells every listener of claims a commit reported as taken on append
   * ({@link StoreCall.Kind#CLAIM_ON_APPEND}): one call per worker that took some, as each drain
   * would have claimed its own.
   *
   * @param claims the claims, at least one
   */
  public void claimsCommittedOnAppend(List<Claim> claims) {
    if (listeners.isEmpty()) {
      return;
    }
    Map<WorkerId, List<Claim>> byWorker = new LinkedHashMap<>();
    claims.forEach(claim -> byWorker.computeIfAbsent(claim.owner(), owner -> new ArrayList<>()).add(claim));
    byWorker.forEach((worker, taken) -> heard(StoreCall.claim(StoreCall.Kind.CLAIM_ON_APPEND, worker, taken.size()),
        taken, CallListener::claimed));
  }

  private List<CallListener> starting(StoreCall call) {
    List<CallListener> hearing = new ArrayList<>(listeners.size());
    for (OutboxStoreListener listener : listeners) {
      try {
        CallListener heard = listener.starting(call);
        if (heard != null && heard != CallListener.NONE) {
          hearing.add(heard);
        }
      } catch (RuntimeException failure) {
        LOG.log(System.Logger.Level.WARNING, "A store listener failed as a " + call.kind().tagValue()
            + " call started; the call and the other listeners go on", failure);
      }
    }
    return hearing;
  }

  private static void tell(StoreCall call, Runnable telling) {
    try {
      telling.run();
    } catch (RuntimeException failure) {
      LOG.log(System.Logger.Level.WARNING, "A store listener failed as a " + call.kind().tagValue()
          + " call ended; the call's answer and the other listeners stay as they were", failure);
    }
  }
}
