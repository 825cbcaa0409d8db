package io.claimedoutbox.drain;

import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counts, by outcome, every transition a store's listener hears. */
final class OutcomeTally implements OutboxStoreListener {

  private final Map<String, LongAdder> byOutcome = new ConcurrentHashMap<>();

  @Override
  public CallListener starting(StoreCall call) {
    if (call.kind() != StoreCall.Kind.TRANSITION) {
      return CallListener.NONE;
    }
    return new CallListener() {
      @Override
      public void transitioned(List<ClaimTransitionResult> results, long nanos) {
        results.forEach(result -> byOutcome.computeIfAbsent(result.outcome().tagValue(), o -> new LongAdder()).increment());
      }
    };
  }

  /** @return the outcomes heard so far, by tag value */
  Map<String, Long> byOutcome() {
    Map<String, Long> counts = new TreeMap<>();
    byOutcome.forEach((outcome, count) -> counts.put(outcome, count.sum()));
    return counts;
  }
}
