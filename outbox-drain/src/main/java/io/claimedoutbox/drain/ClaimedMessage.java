package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;

/**
 * A handler's view of one claim: the entry to emit, the attempt number, and the claim's token
 * generation, which strictly increases with every new claim of the entry, so a downstream system
 * can ignore writes from an older generation than one it has seen.
 */
public final class ClaimedMessage {

  private final Claim claim;
  private volatile boolean claimLost;

  ClaimedMessage(Claim claim) {
    this.claim = Arguments.requireNonNull(claim, "claim");
  }

  /** @return the entry as claimed: id, topic, payload, headers, ordering key */
  public OutboxEntry entry() {
    return claim.snapshot();
  }

  /** @return the claim's token generation, for fencing downstream */
  public long tokenGeneration() {
    return claim.token().generation();
  }

  /** @return which attempt this is, 1 for the first */
  public int attempt() {
    return claim.attempt();
  }

  /** @return the worker holding the claim */
  public WorkerId worker() {
    return claim.owner();
  }

  /**
   * Whether the drain lost this claim (a lease renewal came back not applied). The handler's
   * result is then ignored; it should stop as soon as it can.
   *
   * @return {@code true} once the claim is lost
   */
  public boolean isClaimLost() {
    return claimLost;
  }

  void markClaimLost() {
    claimLost = true;
  }
}
