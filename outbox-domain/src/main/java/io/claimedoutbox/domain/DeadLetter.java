package io.claimedoutbox.domain;

import java.time.Instant;

/**
 * Asks for {@link TransitionKind#DEAD_LETTERED}: give the entry up.
 *
 * @param reason why; stored as the entry's last error, cut to {@value OutboxEntry#MAX_NOTE_LENGTH}
 *     characters
 */
public record DeadLetter(String reason) implements TransitionRequest {

  /**
   * Validates the reason.
   *
   * @throws NullPointerException if {@code reason} is null
   * @throws IllegalArgumentException if {@code reason} is blank
   */
  public DeadLetter {
    Arguments.requireText(reason, "reason", Integer.MAX_VALUE);
  }

  @Override
  public TransitionKind kind() {
    return TransitionKind.DEAD_LETTERED;
  }

  @Override
  public OutboxEntry applyTo(OutboxEntry claimed, Instant now, WriteStamp stamp) {
    return TransitionRequest.requireClaimed(claimed, kind()).toBuilder()
        .status(EntryStatus.DEAD_LETTERED)
        .currentClaim(null)
        .lastError(reason)
        .updatedAt(now)
        .nextRevision(stamp)
        .build();
  }
}
