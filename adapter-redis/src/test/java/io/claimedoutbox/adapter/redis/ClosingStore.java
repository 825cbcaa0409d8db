package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A store that also releases the resources built for it when the suite closes it. */
final class ClosingStore implements OutboxClaimOutcomeStore, AutoCloseable {

  private final OutboxClaimOutcomeStore store;
  private final Runnable release;

  ClosingStore(OutboxClaimOutcomeStore store, Runnable release) {
    this.store = store;
    this.release = release;
  }

  @Override
  public OutboxEntry append(OutboxMessage message) {
    return store.append(message);
  }

  @Override
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    return store.appendAll(messages);
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    return store.find(id);
  }

  @Override
  public boolean delete(EntryId id) {
    return store.delete(id);
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, Duration lease) {
    return store.claimDue(worker, maxEntries, lease);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    return store.tryTransition(claim, request);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return store.capabilities();
  }

  @Override
  public void close() {
    release.run();
  }
}
