package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
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
final class RecordingStore implements OutboxClaimOutcomeStore {

  private final OutboxClaimOutcomeStore delegate;
  final ConcurrentLinkedQueue<ClaimTransitionResult> results = new ConcurrentLinkedQueue<>();
  final Map<EntryId, ConcurrentLinkedQueue<ClaimTransitionResult>> appliedTerminal = new ConcurrentHashMap<>();
  final CountDownLatch allFinished;

  RecordingStore(OutboxClaimOutcomeStore delegate, int entries) {
    this.delegate = delegate;
    this.allFinished = new CountDownLatch(entries);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    ClaimTransitionResult result = delegate.tryTransition(claim, request);
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

  @Override
  public Set<StoreCapability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, Duration lease) {
    return delegate.claimDue(worker, maxEntries, lease);
  }

  @Override
  public OutboxEntry append(OutboxMessage message) {
    return delegate.append(message);
  }

  @Override
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    return delegate.appendAll(messages);
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    return delegate.find(id);
  }

  @Override
  public boolean delete(EntryId id) {
    return delegate.delete(id);
  }
}
