package io.claimedoutbox.port;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.WorkerId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * An {@link OutboxStore} that workers drain by claiming entries and finishing them.
 *
 * <p>The four transition methods here are the compatibility contract: they return the durable
 * entry observed after the call, <em>not</em> whether this call wrote it. A returned
 * {@code DELIVERED} entry may be another worker's write. Code that must attribute a transition to
 * itself uses {@link OutboxClaimOutcomeStore} and requires
 * {@link io.claimedoutbox.domain.ClaimTransitionResult#isApplied()}. None of these methods throws
 * for a transition that was not applied.
 */
public interface OutboxClaimStore extends OutboxStore {

  /**
   * Claims up to {@code maxEntries} due entries for {@code worker}: {@code PENDING} entries whose
   * available time has come, {@code FAILED} entries whose retry time has come, and {@code CLAIMED}
   * entries whose lease has expired; oldest due time first. Each claimed entry gets a new token
   * whose generation is one larger than any before it, one more attempt, and a lease of
   * {@code lease} from now. No two live claims for one entry ever exist, however many workers
   * race; rows other workers are claiming at the same moment are skipped, never waited for.
   *
   * @param worker who claims
   * @param maxEntries the most entries to claim; 1 to {@link StoreArguments#MAX_BATCH}
   * @param lease how long others must wait before taking an entry over; positive, at most
   *     {@link io.claimedoutbox.domain.Instants#MAX_LEASE}
   * @return the claims, oldest due first; empty when nothing is due
   */
  default List<Claim> claimDue(WorkerId worker, int maxEntries, Duration lease) {
    return claimDue(worker, maxEntries, StoreArguments.NO_PAYLOAD_LIMIT, lease);
  }

  /**
   * {@link #claimDue(WorkerId, int, Duration)} bounded by payload bytes as well: the claimed
   * entries' payloads add up to at most {@code maxPayloadBytes}, so a caller that holds what it
   * claims (a drain's buffer) bounds its memory. The due entries are taken in due order while they
   * fit; the first due entry is claimed whatever its size, so an entry larger than the limit is
   * never stuck. The store never reads the payloads of entries it leaves out.
   *
   * <p>Implement this method; the three-argument one calls it without a byte limit.
   *
   * @param worker who claims
   * @param maxEntries the most entries to claim; 1 to {@link StoreArguments#MAX_BATCH}
   * @param maxPayloadBytes the most payload bytes to claim; positive
   * @param lease how long others must wait before taking an entry over
   * @return the claims, oldest due first; empty when nothing is due
   */
  List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease);

  /**
   * Claims the next entry of one ordering key, if it may be claimed now: the key's first unfinished
   * entry, when it is due exactly as {@link #claimDue} would take it. A drain calls this when an entry
   * of the key finished, to hand the key on without a full due query (which reads past every held-back
   * entry of a deep key). Stores that declare {@link StoreCapability#CLAIM_BY_KEY} find the entry with
   * one index lookup; the default claims nothing, and a caller then relies on {@link #claimDue}.
   *
   * @param worker who claims
   * @param orderingKey the key
   * @param lease how long others must wait, as for {@link #claimDue}
   * @return the claim of the key's next entry, or empty when it is not claimable now (none left, not
   *     due, held under a live lease, or another worker was faster)
   */
  default List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    StoreArguments.checkClaimNextOfKey(worker, orderingKey, lease);
    return List.of();
  }

  /**
   * Claims the next entry of each of several ordering keys, each exactly as
   * {@link #claimNextOfKey} would: a drain calls this with the keys whose entries just finished, so
   * a result write hands all of them on at once. A key whose next entry is not claimable now is left
   * out. Stores that declare {@link StoreCapability#CLAIM_BY_KEYS} do it in a fixed number of round
   * trips whatever the number of keys; the default asks {@link #claimNextOfKey} key by key.
   * Should the call fail, claims it may have written are not lost: they wait out their lease like
   * those of a worker that stopped.
   *
   * @param worker who claims
   * @param orderingKeys the keys; at most {@link StoreArguments#MAX_BATCH}, a key given twice counts once
   * @param lease how long others must wait, as for {@link #claimDue}
   * @return the claims, at most one per key, in the order of the keys
   */
  default List<Claim> claimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
    List<Claim> claims = new ArrayList<>();
    for (String key : StoreArguments.checkClaimNextOfKeys(worker, orderingKeys, lease)) {
      claims.addAll(claimNextOfKey(worker, key, lease));
    }
    return claims;
  }

  /**
   * Claims entries the caller holds as they were appended (a commit notification's entries),
   * without a due query: each is claimed exactly as {@link #claimDue} would claim it, and only if
   * it is still at its appended revision — an entry another worker claimed first, or that changed
   * or went away since, is left out, as is one not due yet ({@code availableAt} in the future) and
   * one with an ordering key (the due query decides whether it is its key's first). Stores that
   * declare {@link StoreCapability#CLAIM_APPENDED} write the whole batch in one conditional write;
   * the default claims nothing, and a caller then relies on {@link #claimDue}.
   *
   * @param worker who claims
   * @param appended entries as the store appended them (revision 1); at most
   *     {@link StoreArguments#MAX_BATCH}
   * @param lease how long others must wait, as for {@link #claimDue}
   * @return the claims, a subset of {@code appended} in its order
   */
  default List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    StoreArguments.checkClaimAppended(worker, appended, lease);
    return List.of();
  }

  /**
   * Marks the claimed entry delivered.
   *
   * @param claim the caller's claim
   * @param receipt what the downstream system returned
   * @return the durable entry after the call, or the claim's snapshot when the row is gone
   */
  OutboxEntry markClaimDelivered(Claim claim, DeliveryReceipt receipt);

  /**
   * Records a failed attempt: releases the claim and makes the entry due again at the retry time.
   *
   * @param claim the caller's claim
   * @param failure the retry time and error
   * @return the durable entry after the call, or the claim's snapshot when the row is gone
   */
  OutboxEntry markClaimFailed(Claim claim, RetryableFailure failure);

  /**
   * Gives the claimed entry up.
   *
   * @param claim the caller's claim
   * @param deadLetter why
   * @return the durable entry after the call, or the claim's snapshot when the row is gone
   */
  OutboxEntry markClaimDeadLettered(Claim claim, DeadLetter deadLetter);

  /**
   * Renews the claim's lease and records progress, keeping the same token.
   *
   * @param claim the caller's claim
   * @param renewal the new lease length and progress
   * @return the durable entry after the call, or the claim's snapshot when the row is gone
   */
  OutboxEntry saveClaim(Claim claim, LeaseRenewal renewal);

  /**
   * Where this store tells its drains that entries were committed ({@link CommitNotifications}).
   * The default has none: drains then poll only.
   *
   * @return the store's commit notifications; never {@code null}
   */
  default CommitNotifications commitNotifications() {
    return CommitNotifications.NONE;
  }
}
