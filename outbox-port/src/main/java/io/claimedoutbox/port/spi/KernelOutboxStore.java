package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.OutboxStoreListener.CallListener;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCall;
import io.claimedoutbox.port.StoreCall.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The store contract written once over an adapter's storage primitives: every shipped store extends
 * it. The public methods are final and do, in this order, what no adapter may do differently: check
 * the arguments before any I/O ({@link StoreArguments}), tell the store's
 * {@linkplain #listen listeners} the call starts, run the adapter's primitive (or, for transitions,
 * the {@link TransitionKernel} over the adapter's {@link ConditionalWrites}, for claims the
 * {@link ClaimKernel} over its {@link ClaimStorage}), and tell the listeners
 * how it ended. An adapter writes only how its backend claims, appends, reads and removes, with the
 * arguments already checked.
 *
 * <p>Claims taken on append ({@link io.claimedoutbox.port.StoreCapability#CLAIM_ON_APPEND}) reach the
 * listeners as {@link Kind#CLAIM_ON_APPEND} when their commit is reported, provided the adapter's
 * {@link CommitSignal} comes from {@link #newCommitSignal}.
 *
 * <p>Thread-safe when the primitives are.
 */
public abstract class KernelOutboxStore implements OutboxClaimOutcomeStore {

  private final StoreListeners listeners = new StoreListeners();

  /** For subclasses. */
  protected KernelOutboxStore() {}

  /**
   * The kernel that decides this store's transitions; asked once per transition call, so a field.
   *
   * @return the kernel
   */
  protected abstract TransitionKernel transitionKernel();

  /**
   * Appends, all or none, in a transaction of the store's own. A store that takes claims on append
   * writes through {@link CommitSignal#appendCommitted}, which offers, writes and reports in that
   * order.
   *
   * @param messages checked, at least one
   * @return the entries as written, in order
   */
  protected abstract List<OutboxEntry> appendChecked(List<OutboxMessage> messages);

  /**
   * @param id the entry, not {@code null}
   * @return the stored entry, empty when there is none
   */
  protected abstract Optional<OutboxEntry> read(EntryId id);

  /**
   * @param id the entry, not {@code null}
   * @return whether there was one to delete
   */
  protected abstract boolean remove(EntryId id);

  /**
   * The claims written once over the adapter's {@link ClaimStorage}: what the claim methods below
   * run unless the adapter overrides them. Asked once per claim call, so a field.
   *
   * @return the kernel, or {@code null} when the adapter writes its claims itself
   */
  protected ClaimKernel claimKernel() {
    return null;
  }

  /**
   * Claims due entries as {@link #claimDue} promises; by default through the {@link #claimKernel}.
   *
   * @param worker who claims
   * @param maxEntries checked
   * @param maxPayloadBytes checked
   * @param lease checked
   * @return the claims
   */
  protected List<Claim> claimDueChecked(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    ClaimKernel kernel = claimKernel();
    if (kernel == null) {
      throw new IllegalStateException("bug: " + getClass().getName() + " has neither a claim kernel nor claimDueChecked");
    }
    return kernel.claimDue(worker, maxEntries, maxPayloadBytes, lease);
  }

  /**
   * Claims the next entry of one key as {@link #claimNextOfKey} promises: through the
   * {@link #claimKernel} when there is one, else nothing (a store without
   * {@link io.claimedoutbox.port.StoreCapability#CLAIM_BY_KEY}).
   *
   * @param worker who claims
   * @param orderingKey checked
   * @param lease checked
   * @return at most one claim
   */
  protected List<Claim> claimNextOfKeyChecked(WorkerId worker, String orderingKey, Duration lease) {
    ClaimKernel kernel = claimKernel();
    return kernel == null ? List.of() : kernel.claimNextOfKeys(worker, List.of(orderingKey), lease);
  }

  /**
   * Claims the next entry of each key as {@link #claimNextOfKeys} promises: through the
   * {@link #claimKernel} when there is one, else {@link #claimNextOfKeyChecked} key by key.
   *
   * @param worker who claims
   * @param orderingKeys checked, distinct, at least one
   * @param lease checked
   * @return at most one claim per key, in the keys' order
   */
  protected List<Claim> claimNextOfKeysChecked(WorkerId worker, List<String> orderingKeys, Duration lease) {
    ClaimKernel kernel = claimKernel();
    if (kernel != null) {
      return kernel.claimNextOfKeys(worker, orderingKeys, lease);
    }
    List<Claim> claims = new ArrayList<>();
    for (String key : orderingKeys) {
      claims.addAll(claimNextOfKeyChecked(worker, key, lease));
    }
    return claims;
  }

  /**
   * Claims appended entries as {@link #claimAppended} promises: through the {@link #claimKernel}
   * when there is one, else nothing (a store without
   * {@link io.claimedoutbox.port.StoreCapability#CLAIM_APPENDED}).
   *
   * @param worker who claims
   * @param appended checked, at least one
   * @param lease checked
   * @return the claims, in {@code appended}'s order
   */
  protected List<Claim> claimAppendedChecked(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    ClaimKernel kernel = claimKernel();
    return kernel == null ? List.of() : kernel.claimAppended(worker, appended, lease);
  }

  /**
   * Runs an append of the adapter's own (inside a caller's transaction, say) as one
   * {@link Kind#APPEND} call its listeners hear. The adapter checks every argument first, so a
   * rejected one reaches no listener; an empty batch appends nothing and is heard by nobody.
   *
   * @param checked the messages, checked ({@link StoreArguments#checkAppendAll})
   * @param append the append of {@code checked}
   * @return what {@code append} returned, or an empty list for an empty batch
   */
  protected final List<OutboxEntry> listenedAppend(List<OutboxMessage> checked, Supplier<List<OutboxEntry>> append) {
    if (checked.isEmpty()) {
      return List.of();
    }
    return listeners.run(() -> StoreCall.append(checked.size()), append, CallListener::appended);
  }

  /**
   * A commit signal whose committed claims taken on append its listeners hear as
   * {@link Kind#CLAIM_ON_APPEND}: the signal to build an adapter's commit notifications on.
   *
   * @param remote the backend's channel for commits across processes (heard from them, and this
   *     store's announced to them), or {@code null} for none
   * @return the signal
   */
  protected final CommitSignal newCommitSignal(CommitSignal.RemoteCommits remote) {
    CommitSignal signal = remote == null ? CommitSignal.local() : CommitSignal.withRemote(remote);
    return signal.reportingClaims(listeners::claimsCommittedOnAppend, () -> !listeners.isEmpty());
  }

  @Override
  public final OutboxStoreListener.Registration listen(OutboxStoreListener listener) {
    return listeners.add(listener);
  }

  @Override
  public final List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    return listenedAppend(batch, () -> appendChecked(batch));
  }

  @Override
  public final Optional<OutboxEntry> find(EntryId id) {
    Arguments.requireNonNull(id, "id");
    return listeners.run(() -> StoreCall.ofEntry(Kind.FIND, id), () -> read(id), CallListener::found);
  }

  @Override
  public final boolean delete(EntryId id) {
    Arguments.requireNonNull(id, "id");
    return listeners.run(() -> StoreCall.ofEntry(Kind.DELETE, id), () -> remove(id), CallListener::deleted);
  }

  @Override
  public final List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    StoreArguments.checkClaimDue(worker, maxEntries, maxPayloadBytes, lease);
    return listeners.run(() -> StoreCall.claim(Kind.CLAIM_DUE, worker, maxEntries),
        () -> claimDueChecked(worker, maxEntries, maxPayloadBytes, lease), CallListener::claimed);
  }

  @Override
  public final List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    StoreArguments.checkClaimNextOfKey(worker, orderingKey, lease);
    return listeners.run(() -> StoreCall.claim(Kind.CLAIM_BY_KEYS, worker, 1),
        () -> claimNextOfKeyChecked(worker, orderingKey, lease), CallListener::claimed);
  }

  @Override
  public final List<Claim> claimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
    List<String> keys = StoreArguments.checkClaimNextOfKeys(worker, orderingKeys, lease);
    if (keys.isEmpty()) {
      return List.of();
    }
    return listeners.run(() -> StoreCall.claim(Kind.CLAIM_BY_KEYS, worker, keys.size()),
        () -> claimNextOfKeysChecked(worker, keys, lease), CallListener::claimed);
  }

  @Override
  public final List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    List<OutboxEntry> checked = StoreArguments.checkClaimAppended(worker, appended, lease);
    if (checked.isEmpty()) {
      return List.of();
    }
    return listeners.run(() -> StoreCall.claim(Kind.CLAIM_APPENDED, worker, checked.size()),
        () -> claimAppendedChecked(worker, checked, lease), CallListener::claimed);
  }

  @Override
  public final ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    List<ClaimTransition> batch = List.of(new ClaimTransition(claim, request));
    return listeners.run(() -> StoreCall.transition(batch), () -> transitionKernel().decide(batch).get(0),
        (listener, result, nanos) -> listener.transitioned(List.of(result), nanos));
  }

  @Override
  public final List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    List<ClaimTransition> batch = StoreArguments.checkTransitionAll(transitions);
    if (batch.isEmpty()) {
      return List.of();
    }
    return listeners.run(() -> StoreCall.transition(batch), () -> transitionKernel().decide(batch),
        CallListener::transitioned);
  }
}
