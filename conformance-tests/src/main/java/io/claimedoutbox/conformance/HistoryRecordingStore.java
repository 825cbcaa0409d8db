package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A store decorator that records everything that passes through it — claims handed out,
 * transition results, successful deletes, and how long each transition call took — into a
 * {@link TransitionHistory}, so any workload (a drain, a race, a benchmark) can be checked with
 * the suite's history rules afterwards. Thread-safe.
 */
public final class HistoryRecordingStore extends ForwardingOutboxStore {

  private final TransitionHistory history;
  private final ConcurrentLinkedQueue<Long> transitionNanos = new ConcurrentLinkedQueue<>();

  /**
   * @param delegate the store that does the work
   * @param history where to record
   */
  public HistoryRecordingStore(OutboxClaimOutcomeStore delegate, TransitionHistory history) {
    super(delegate);
    this.history = Arguments.requireNonNull(history, "history");
  }

  /** @return the durations of every transition call so far, in nanoseconds */
  public List<Long> transitionNanos() {
    return List.copyOf(transitionNanos);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    long started = System.nanoTime();
    long invokedAt = history.tick();
    ClaimTransitionResult result = delegate().tryTransition(claim, request);
    long returnedAt = history.tick();
    transitionNanos.add(System.nanoTime() - started);
    history.recordAttempt(new TransitionHistory.Attempt(claim, request.kind(), result, invokedAt, returnedAt));
    return result;
  }

  /** Records each element's result; the batch's duration counts once per element. */
  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    long started = System.nanoTime();
    long invokedAt = history.tick();
    List<ClaimTransitionResult> results = delegate().tryTransitionAll(transitions);
    long returnedAt = history.tick();
    long elapsed = System.nanoTime() - started;
    for (int i = 0; i < results.size(); i++) {
      transitionNanos.add(elapsed);
      ClaimTransition transition = transitions.get(i);
      history.recordAttempt(new TransitionHistory.Attempt(transition.claim(), transition.kind(), results.get(i),
          invokedAt, returnedAt));
    }
    return results;
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    List<Claim> claims = delegate().claimDue(worker, maxEntries, maxPayloadBytes, lease);
    history.recordClaims(claims);
    return claims;
  }

  @Override
  public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    List<Claim> claims = delegate().claimNextOfKey(worker, orderingKey, lease);
    history.recordClaims(claims);
    return claims;
  }

  @Override
  public boolean delete(EntryId id) {
    boolean deleted = delegate().delete(id);
    if (deleted) {
      history.recordDeletion(id);
    }
    return deleted;
  }
}
