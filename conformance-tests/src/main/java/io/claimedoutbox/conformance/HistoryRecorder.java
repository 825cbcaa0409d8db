package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A listener of a store that records everything the store does — claims handed out (claims taken
 * on append too, at their commit), transition results, successful deletes, and how long each
 * transition call took — into a {@link TransitionHistory}, so any workload (a drain, a race, a
 * benchmark) can be checked with the suite's history rules afterwards. Thread-safe.
 */
public final class HistoryRecorder implements OutboxStoreListener {

  private final TransitionHistory history;
  private final ConcurrentLinkedQueue<Long> transitionNanos = new ConcurrentLinkedQueue<>();

  private HistoryRecorder(TransitionHistory history) {
    this.history = history;
  }

  /**
   * Records every call {@code store} answers from now on.
   *
   * @param store the store to record; it must call listeners ({@link OutboxClaimOutcomeStore#listen})
   * @param history where to record
   * @return the recorder
   */
  public static HistoryRecorder recording(OutboxClaimOutcomeStore store, TransitionHistory history) {
    HistoryRecorder recorder = new HistoryRecorder(Arguments.requireNonNull(history, "history"));
    Arguments.requireNonNull(store, "store").listen(recorder);
    return recorder;
  }

  /** @return the durations of every transition so far, in nanoseconds: a batch's once per element */
  public List<Long> transitionNanos() {
    return List.copyOf(transitionNanos);
  }

  @Override
  public CallListener starting(StoreCall call) {
    if (call.kind().claims()) {
      return new CallListener() {
        @Override
        public void claimed(List<Claim> claims, long nanos) {
          history.recordClaims(claims);
        }
      };
    }
    return switch (call.kind()) {
      case TRANSITION -> new Transitions(call.transitions(), history.tick());
      case DELETE -> deletion(call.entryId().orElseThrow());
      default -> CallListener.NONE;
    };
  }

  private CallListener deletion(EntryId id) {
    return new CallListener() {
      @Override
      public void deleted(boolean existed, long nanos) {
        if (existed) {
          history.recordDeletion(id);
        }
      }
    };
  }

  private final class Transitions implements CallListener {
    private final List<ClaimTransition> batch;
    private final long invokedAt;

    Transitions(List<ClaimTransition> batch, long invokedAt) {
      this.batch = batch;
      this.invokedAt = invokedAt;
    }

    @Override
    public void transitioned(List<ClaimTransitionResult> results, long nanos) {
      long returnedAt = history.tick();
      for (int i = 0; i < results.size(); i++) {
        transitionNanos.add(nanos);
        ClaimTransition transition = batch.get(i);
        history.recordAttempt(new TransitionHistory.Attempt(transition.claim(), transition.kind(), results.get(i),
            invokedAt, returnedAt));
      }
    }
  }
}
