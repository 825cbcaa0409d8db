package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/** Records every transition result a store gives, so a test can check who wrote what. */
final class RecordingStore extends ForwardingOutboxStore {

  final ConcurrentLinkedQueue<ClaimTransitionResult> results = new ConcurrentLinkedQueue<>();
  final Map<EntryId, ConcurrentLinkedQueue<ClaimTransitionResult>> appliedTerminal = new ConcurrentHashMap<>();
  final CountDownLatch allFinished;

  RecordingStore(OutboxClaimOutcomeStore delegate, int entries) {
    super(delegate);
    this.allFinished = new CountDownLatch(entries);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    ClaimTransitionResult result = delegate().tryTransition(claim, request);
    results.add(result);
    if (result.isApplied() && result.entry().status().isTerminal()) {
      appliedTerminal.computeIfAbsent(claim.entryId(), id -> new ConcurrentLinkedQueue<>()).add(result);
      allFinished.countDown();
    }
    return result;
  }

  long applied() {
    return results.stream().filter(ClaimTransitionResult::isApplied).count();
  }

  Map<ClaimTransitionOutcome, Long> outcomes() {
    Map<ClaimTransitionOutcome, Long> counts = new EnumMap<>(ClaimTransitionOutcome.class);
    results.forEach(result -> counts.merge(result.outcome(), 1L, Long::sum));
    return counts;
  }






}
