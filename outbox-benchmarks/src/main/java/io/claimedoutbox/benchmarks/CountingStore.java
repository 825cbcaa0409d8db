package io.claimedoutbox.benchmarks;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the store calls a drain makes and the time they take, so the report can say what bounds
 * the drain: calls per entry and the share of the run spent waiting on the store.
 */
final class CountingStore extends ForwardingOutboxStore {

  private final LongAdder claimCalls = new LongAdder();
  private final LongAdder claimed = new LongAdder();
  private final LongAdder claimNanos = new LongAdder();
  private final LongAdder byKeyCalls = new LongAdder();
  private final LongAdder byKeyClaimed = new LongAdder();
  private final LongAdder byKeyNanos = new LongAdder();
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
      List<Claim> claims = super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
      claimed.add(claims.size());
      return claims;
    } finally {
      claimCalls.increment();
      claimNanos.add(System.nanoTime() - started);
    }
  }

  @Override
  public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    return claimNextOfKeys(worker, List.of(orderingKey), lease);
  }

  @Override
  public List<Claim> claimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
    long started = System.nanoTime();
    try {
      List<Claim> claims = super.claimNextOfKeys(worker, orderingKeys, lease);
      byKeyClaimed.add(claims.size());
      return claims;
    } finally {
      byKeyCalls.increment();
      byKeyNanos.add(System.nanoTime() - started);
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
  String summaryAndReset(double seconds) {
    String summary = String.format("claimDue %d calls (%.1f entries each, %.1f ms each, busy %.0f%% of the run);"
            + " claims by key %d calls (%.1f entries each, %.1f ms each, busy %.0f%%);"
            + " transitions %d calls (%.1f each, %.1f ms each, busy %.0f%%)",
        claimCalls.sum(), perCall(claimed, claimCalls), perCall(claimNanos, claimCalls) / 1e6,
        100 * claimNanos.sum() / 1e9 / seconds,
        byKeyCalls.sum(), perCall(byKeyClaimed, byKeyCalls), perCall(byKeyNanos, byKeyCalls) / 1e6,
        100 * byKeyNanos.sum() / 1e9 / seconds,
        resultCalls.sum(), perCall(resultElements, resultCalls), perCall(resultNanos, resultCalls) / 1e6,
        100 * resultNanos.sum() / 1e9 / seconds);
    for (LongAdder counter : List.of(claimCalls, claimed, claimNanos, byKeyCalls, byKeyClaimed, byKeyNanos,
        resultCalls, resultElements, resultNanos)) {
      counter.reset();
    }
    return summary;
  }

  private static double perCall(LongAdder total, LongAdder calls) {
    return total.sum() / (double) Math.max(1, calls.sum());
  }
}
