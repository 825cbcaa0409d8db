package io.claimedoutbox.domain;

import java.time.Instant;

/**
 * The claim a {@link EntryStatus#CLAIMED} entry is held under, as stored with the entry.
 *
 * @param owner the worker holding the claim
 * @param token the claim's token
 * @param claimedAt when the claim was handed out
 * @param leaseUntil until when no other worker may take the entry over
 */
public record CurrentClaim(WorkerId owner, ClaimToken token, Instant claimedAt, Instant leaseUntil) {

  /**
   * Validates the claim state and truncates its instants to milliseconds, the precision every
   * backend stores.
   *
   * @throws NullPointerException if any component is null
   * @throws IllegalArgumentException if the lease ends before the claim began
   */
  public CurrentClaim {
    Arguments.requireNonNull(owner, "owner");
    Arguments.requireNonNull(token, "token");
    claimedAt = Instants.stored(Arguments.requireNonNull(claimedAt, "claimedAt"));
    leaseUntil = Instants.stored(Arguments.requireNonNull(leaseUntil, "leaseUntil"));
    if (leaseUntil.isBefore(claimedAt)) {
      throw new IllegalArgumentException(
          "leaseUntil " + leaseUntil + " must not be before claimedAt " + claimedAt);
    }
  }

  /**
   * Whether {@code owner} and {@code token} are exactly this claim's.
   *
   * @param otherOwner the owner to compare
   * @param otherToken the token to compare
   * @return {@code true} when both match
   */
  public boolean isHeldBy(WorkerId otherOwner, ClaimToken otherToken) {
    return owner.equals(otherOwner) && token.equals(otherToken);
  }
}
