package io.claimedoutbox.benchmarks;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the store calls a drain makes and the time they take, so the report can say what bounds
 * the drain: calls per entry and the share of the run spent waiting on the store.
 */
final class CountingStore extends ForwardingOutboxStore {

  private final LongAdder claimCalls = new LongAdder();
  private final LongAdder claimNanos = new LongAdder();
  private final LongAdder resultCalls = new LongAdder();
  private final LongAdder resultElements = new LongAdder();
  private final LongAdder resultNanos = new LongAdder();

  CountingStore(OutboxClaimOutcomeStore delegate) {
    super(delegate);
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    long started = System.nanoTime();
    try {
      return super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
    } finally {
      claimCalls.increment();
      claimNanos.add(System.nanoTime() - started);
    }
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    return tryTransitionAll(List.of(new ClaimTransition(claim, request))).get(0);
  }

  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    long started = System.nanoTime();
    try {
      return super.tryTransitionAll(transitions);
    } finally {
      resultCalls.increment();
      resultElements.add(transitions.size());
      resultNanos.add(System.nanoTime() - started);
    }
  }

  /** @return the calls since the last reset, in words, then starts counting afresh */
  String summaryAndReset(long entries, double seconds) {
    String summary = String.format("claimDue %d calls (%.1f entries each, %.1f ms each, busy %.0f%% of the run);"
            + " transitions %d calls (%.1f each, %.1f ms each, busy %.0f%%)",
        claimCalls.sum(), entries / (double) Math.max(1, claimCalls.sum()),
        claimNanos.sum() / 1e6 / Math.max(1, claimCalls.sum()), 100 * claimNanos.sum() / 1e9 / seconds,
        resultCalls.sum(), resultElements.sum() / (double) Math.max(1, resultCalls.sum()),
        resultNanos.sum() / 1e6 / Math.max(1, resultCalls.sum()), 100 * resultNanos.sum() / 1e9 / seconds);
    claimCalls.reset();
    claimNanos.reset();
    resultCalls.reset();
    resultElements.reset();
    resultNanos.reset();
    return summary;
  }
}
