package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A store that hands every call to another one: the base of decorators (observation, recording)
 * that override only what they add to. The compatibility and named {@code try…} methods stay the
 * interface's defaults, so they pass through the decorator's {@link #tryTransition} too.
 * {@link #tryTransitionAll} goes to the delegate's own batch path, so a decorator that adds to
 * {@link #tryTransition} must add the same to {@link #tryTransitionAll}.
 */
public abstract class ForwardingOutboxStore implements OutboxClaimOutcomeStore {

  private final OutboxClaimOutcomeStore delegate;

  /**
   * @param delegate the store that does the work
   */
  protected ForwardingOutboxStore(OutboxClaimOutcomeStore delegate) {
    this.delegate = Arguments.requireNonNull(delegate, "store");
  }

  /** @return the store that does the work */
  protected final OutboxClaimOutcomeStore delegate() {
    return delegate;
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    return delegate.tryTransition(claim, request);
  }

  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    return delegate.tryTransitionAll(transitions);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return delegate.capabilities();
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    return delegate.claimDue(worker, maxEntries, maxPayloadBytes, lease);
  }

  @Override
  public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    return delegate.claimNextOfKey(worker, orderingKey, lease);
  }

  @Override
  public List<Claim> claimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
    return delegate.claimNextOfKeys(worker, orderingKeys, lease);
  }

  @Override
  public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    return delegate.claimAppended(worker, appended, lease);
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

  @Override
  public CommitNotifications commitNotifications() {
    return delegate.commitNotifications();
  }

  /**
   * {@inheritDoc}
   *
   * <p>The delegate's listeners: they hear the delegate's calls, not what this decorator adds.
   */
  @Override
  public OutboxStoreListener.Registration listen(OutboxStoreListener listener) {
    return delegate.listen(listener);
  }
}
