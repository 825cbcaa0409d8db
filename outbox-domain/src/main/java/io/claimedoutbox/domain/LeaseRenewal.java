package io.claimedoutbox.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Asks for {@link TransitionKind#SAVE}: keep the claim (same token) with a lease of
 * {@code extension} from the write time, optionally recording progress.
 *
 * @param extension the new lease length, counted from the write time; positive, at most
 *     {@link Instants#MAX_LEASE}
 * @param progress what to record, if anything; stored cut to {@value OutboxEntry#MAX_NOTE_LENGTH}
 */
public record LeaseRenewal(Duration extension, Optional<String> progress) implements TransitionRequest {

  /**
   * Validates the renewal.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if {@code extension} is not positive or longer than
   *     {@link Instants#MAX_LEASE}
   */
  public LeaseRenewal {
    Arguments.requireLease(extension, "extension");
    Arguments.requireNonNull(progress, "progress");
  }

  /**
   * @param extension the new lease length
   * @return a renewal that records no progress
   */
  public static LeaseRenewal of(Duration extension) {
    return new LeaseRenewal(extension, Optional.empty());
  }

  /**
   * @param extension the new lease length
   * @param progress what to record
   * @return a renewal that records {@code progress}
   */
  public static LeaseRenewal withProgress(Duration extension, String progress) {
    return new LeaseRenewal(extension, Optional.of(Arguments.requireNonNull(progress, "progress")));
  }

  @Override
  public TransitionKind kind() {
    return TransitionKind.SAVE;
  }

  @Override
  public OutboxEntry applyTo(OutboxEntry claimed, Instant now, WriteStamp stamp) {
    CurrentClaim held = TransitionRequest.requireClaimed(claimed, kind()).currentClaim().orElseThrow();
    OutboxEntryBuilder next = claimed.toBuilder()
        .currentClaim(new CurrentClaim(held.owner(), held.token(), held.claimedAt(), now.plus(extension)))
        .updatedAt(now)
        .nextRevision(stamp);
    progress.ifPresent(next::progress);
    return next.build();
  }
}
