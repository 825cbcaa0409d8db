package io.claimedoutbox.domain;

/**
 * One element of a batched transition call: the transition {@code request} asked under
 * {@code claim}. A batch answers each element exactly as a single call with the same claim and
 * request would.
 *
 * @param claim the caller's claim
 * @param request the transition
 */
public record ClaimTransition(Claim claim, TransitionRequest request) {

  /**
   * Validates the pair.
   *
   * @throws NullPointerException naming {@code claim} or {@code request} when one is null
   */
  public ClaimTransition {
    Arguments.requireNonNull(claim, "claim");
    Arguments.requireNonNull(request, "request");
  }

  /** @return the entry the transition is asked for */
  public EntryId entryId() {
    return claim.entryId();
  }

  /** @return which transition is asked */
  public TransitionKind kind() {
    return request.kind();
  }
}
