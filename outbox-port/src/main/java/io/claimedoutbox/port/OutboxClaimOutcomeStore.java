package io.claimedoutbox.port;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WriteStamp;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An {@link OutboxClaimStore} that says, for every transition, whether <em>this call</em> wrote
 * it. Each adapter builds one object implementing all three store contracts.
 *
 * <p>The outcome of a {@code try…} method is decided against the durable row, in this order:
 * no row → {@code MISSING} (with the claim's snapshot); row delivered or dead-lettered →
 * {@code TERMINAL}; row not {@code CLAIMED} under exactly the claim's owner and token →
 * {@code STALE_CLAIM}, nothing written; otherwise a compare-and-set write → {@code APPLIED} with the
 * entry exactly as written, or, when another writer won, {@code MISSING} (row gone) or
 * {@code CONCURRENCY_LOST} (with the winner). See {@link io.claimedoutbox.domain.ClaimFence}.
 *
 * <p>The compatibility methods of {@link OutboxClaimStore} go through the {@code try…} path and
 * return {@link ClaimTransitionResult#entry()}; implementations must not override them otherwise.
 */
public interface OutboxClaimOutcomeStore extends OutboxClaimStore {

  /**
   * Asks for any transition under {@code claim}; the four named methods call this one.
   *
   * @param claim the caller's claim
   * @param request the transition
   * @return the outcome and the entry it carries
   * @throws NullPointerException if an argument is null, before any I/O
   * @throws TransitionOutcomeUnknownException if the write was sent but its fate is unknown
   * @throws OutboxStoreException on infrastructure failure (nothing was written)
   */
  ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request);

  /**
   * Asks for many transitions at once, each under its own claim: the drain records results this
   * way. Each element gets exactly the outcome and entry a single {@link #tryTransition} with the
   * same claim and request would give, whatever its position and whatever the other elements'
   * outcomes; observation counts and logs each element on its own.
   *
   * <p>The whole batch is checked before any I/O (no {@code null} element, no entry twice), so a
   * bad element writes nothing of the batch. Adapters override this default, which calls
   * {@link #tryTransition} for each element, with one statement or script per batch.
   *
   * <p>When the call throws, the elements before the failure may have been written; as with a
   * single call, a write is this caller's exactly when the stored entry carries the write stamp
   * of the attempt, so each element's fate can be read back with {@link #find}.
   *
   * @param transitions the (claim, request) pairs; may be empty
   * @return one result per element, in the order of {@code transitions}
   * @throws NullPointerException naming the first {@code null} element, before any I/O
   * @throws IllegalArgumentException when one entry appears twice, before any I/O
   * @throws TransitionOutcomeUnknownException if a write was sent but its fate is unknown
   * @throws OutboxStoreException on infrastructure failure
   */
  default List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    List<ClaimTransition> batch = StoreArguments.checkTransitionAll(transitions);
    List<ClaimTransitionResult> results = new ArrayList<>(batch.size());
    Map<EntryId, WriteStamp> applied = new HashMap<>();
    for (ClaimTransition transition : batch) {
      ClaimTransitionResult result;
      try {
        result = tryTransition(transition.claim(), transition.request());
      } catch (OutboxStoreException failure) {
        // the elements before were written: say with which stamps, so none of them is asked again
        if (applied.isEmpty()) {
          throw failure;
        }
        throw TransitionOutcomeUnknownException.ofPartialBatch(batch, applied, failure);
      }
      if (result.isApplied()) {
        result.entry().lastWriteStamp().ifPresent(stamp -> applied.put(transition.entryId(), stamp));
      }
      results.add(result);
    }
    return results;
  }

  /**
   * The implementation properties this store declares.
   *
   * @return the store's capabilities; empty when it declares none
   */
  Set<StoreCapability> capabilities();

  /**
   * Makes {@code listener} hear every call of this store from now on, until the registration is
   * closed: the way to observe a store (metrics, traces, recorders) without a decorator in between.
   * Every shipped store supports it (the SPI's {@code KernelOutboxStore} calls the listeners); the
   * default, for a store written by hand without it, refuses.
   *
   * @param listener what to call; not {@code null}
   * @return the registration
   * @throws UnsupportedOperationException when this store calls no listeners
   */
  default OutboxStoreListener.Registration listen(OutboxStoreListener listener) {
    throw new UnsupportedOperationException(getClass().getName() + " calls no store listeners: build it on"
        + " io.claimedoutbox.port.spi.KernelOutboxStore");
  }

  /**
   * Marks the claimed entry delivered, saying whether this call wrote it.
   *
   * @param claim the caller's claim
   * @param receipt what the downstream system returned
   * @return the outcome and the entry it carries
   */
  default ClaimTransitionResult tryMarkClaimDelivered(Claim claim, DeliveryReceipt receipt) {
    return tryTransition(claim, receipt);
  }

  /**
   * Records a failed attempt, saying whether this call wrote it.
   *
   * @param claim the caller's claim
   * @param failure the retry time and error
   * @return the outcome and the entry it carries
   */
  default ClaimTransitionResult tryMarkClaimFailed(Claim claim, RetryableFailure failure) {
    return tryTransition(claim, failure);
  }

  /**
   * Gives the claimed entry up, saying whether this call wrote it.
   *
   * @param claim the caller's claim
   * @param deadLetter why
   * @return the outcome and the entry it carries
   */
  default ClaimTransitionResult tryMarkClaimDeadLettered(Claim claim, DeadLetter deadLetter) {
    return tryTransition(claim, deadLetter);
  }

  /**
   * Renews the claim's lease, saying whether this call wrote it. After {@code APPLIED},
   * {@code Claim.of(result.entry())} is the claim with the new lease.
   *
   * @param claim the caller's claim
   * @param renewal the new lease length and progress
   * @return the outcome and the entry it carries
   */
  default ClaimTransitionResult trySaveClaim(Claim claim, LeaseRenewal renewal) {
    return tryTransition(claim, renewal);
  }

  @Override
  default OutboxEntry markClaimDelivered(Claim claim, DeliveryReceipt receipt) {
    return tryMarkClaimDelivered(claim, receipt).entry();
  }

  @Override
  default OutboxEntry markClaimFailed(Claim claim, RetryableFailure failure) {
    return tryMarkClaimFailed(claim, failure).entry();
  }

  @Override
  default OutboxEntry markClaimDeadLettered(Claim claim, DeadLetter deadLetter) {
    return tryMarkClaimDeadLettered(claim, deadLetter).entry();
  }

  @Override
  default OutboxEntry saveClaim(Claim claim, LeaseRenewal renewal) {
    return trySaveClaim(claim, renewal).entry();
  }
}
