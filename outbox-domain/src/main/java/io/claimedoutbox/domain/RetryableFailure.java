package io.claimedoutbox.domain;

import java.time.Instant;

/**
 * Asks for {@link TransitionKind#FAILED}: the attempt failed, release the claim and make the entry
 * due again at {@code retryAt}.
 *
 * @param retryAt when the entry becomes claimable again (a past instant means at once); within
 *     {@link Instants#EARLIEST} … {@link Instants#LATEST}
 * @param error why the attempt failed; stored cut to {@value OutboxEntry#MAX_NOTE_LENGTH} chars
 */
public record RetryableFailure(Instant retryAt, String error) implements TransitionRequest {

  /**
   * Validates the failure.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code error} is blank or {@code retryAt} is past the horizon
   */
  public RetryableFailure {
    retryAt = Instants.stored(Instants.requireStorable(retryAt, "retryAt"));
    Arguments.requireText(error, "error", Integer.MAX_VALUE);
  }

  @Override
  public TransitionKind kind() {
    return TransitionKind.FAILED;
  }

  @Override
  public OutboxEntry applyTo(OutboxEntry claimed, Instant now, WriteStamp stamp) {
    return TransitionRequest.requireClaimed(claimed, kind()).toBuilder()
        .status(EntryStatus.FAILED)
        .currentClaim(null)
        .availableAt(retryAt)
        .lastError(error)
        .updatedAt(now)
        .nextRevision(stamp)
        .build();
  }
}
