package io.claimedoutbox.domain;

import java.time.Instant;

/**
 * One worker's right to finish one entry, as handed out by a claim: the entry id, the owner, the
 * token, the lease, the attempt number, and the snapshot of the entry as claimed. The caller keeps
 * it and passes it back with every transition.
 *
 * <p>A claim is consistent with its snapshot by construction: the snapshot is {@code CLAIMED}
 * under exactly this owner and token. A claim stays usable after its lease expires; only a new
 * claim by someone, or a release, makes it stale.
 *
 * @param entryId the claimed entry
 * @param owner the worker holding the claim
 * @param token the claim's token
 * @param claimedAt when the claim was handed out
 * @param leaseUntil until when others must wait
 * @param attempt the attempt number this claim counts (1 for the first claim)
 * @param snapshot the entry as stored when claimed (or as written by the holder's last save)
 */
public record Claim(
    EntryId entryId,
    WorkerId owner,
    ClaimToken token,
    Instant claimedAt,
    Instant leaseUntil,
    int attempt,
    OutboxEntry snapshot) {

  /**
   * Validates that every part agrees with the snapshot.
   *
   * @throws NullPointerException if any component is null
   * @throws IllegalArgumentException if the snapshot is another entry's, is not {@code CLAIMED},
   *     or is held under a different owner, token, lease or attempt
   */
  public Claim {
    Arguments.requireNonNull(entryId, "entryId");
    Arguments.requireNonNull(owner, "owner");
    Arguments.requireNonNull(token, "token");
    claimedAt = Instants.stored(Arguments.requireNonNull(claimedAt, "claimedAt"));
    leaseUntil = Instants.stored(Arguments.requireNonNull(leaseUntil, "leaseUntil"));
    Arguments.requireNonNull(snapshot, "snapshot");
    if (!snapshot.id().equals(entryId)) {
      throw new IllegalArgumentException(
          "snapshot belongs to entry " + snapshot.id() + ", not to the claimed entry " + entryId);
    }
    CurrentClaim held = snapshot.currentClaim().orElseThrow(() -> new IllegalArgumentException(
        "snapshot of entry " + entryId + " is " + snapshot.status() + ", not CLAIMED"));
    if (!held.equals(new CurrentClaim(owner, token, claimedAt, leaseUntil))
        || snapshot.attempts() != attempt) {
      throw new IllegalArgumentException(
          "snapshot of entry " + entryId + " is held under " + held + " attempt "
              + snapshot.attempts() + ", which differs from this claim");
    }
  }

  /**
   * The claim a {@code CLAIMED} entry is held under, with the entry as its snapshot.
   *
   * @param claimedSnapshot an entry in status {@code CLAIMED}
   * @return the claim
   * @throws IllegalArgumentException if the entry is not {@code CLAIMED}
   */
  public static Claim of(OutboxEntry claimedSnapshot) {
    Arguments.requireNonNull(claimedSnapshot, "claimedSnapshot");
    CurrentClaim held = claimedSnapshot.currentClaim().orElseThrow(() -> new IllegalArgumentException(
        "claimedSnapshot of entry " + claimedSnapshot.id() + " is " + claimedSnapshot.status()
            + ", not CLAIMED"));
    return new Claim(claimedSnapshot.id(), held.owner(), held.token(), held.claimedAt(),
        held.leaseUntil(), claimedSnapshot.attempts(), claimedSnapshot);
  }
}
