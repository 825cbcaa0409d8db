package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import java.util.Optional;

/**
 * What {@link OutboxOperations#requeue} did, and the entry as stored after it.
 *
 * @param outcome what happened
 * @param entry the entry after the call; empty exactly when {@link Outcome#MISSING}
 */
public record RequeueResult(Outcome outcome, Optional<OutboxEntry> entry) {

  /** What a requeue did. */
  public enum Outcome {
    /** This call put the dead letter back in the queue. */
    REQUEUED,
    /** Nothing written: the entry is not a dead letter (any more). */
    NOT_DEAD_LETTERED,
    /** Nothing written: there is no such entry. */
    MISSING
  }

  /**
   * Checks that the entry is present exactly when the outcome needs one.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if the entry does not fit the outcome
   */
  public RequeueResult {
    Arguments.requireNonNull(outcome, "outcome");
    Arguments.requireNonNull(entry, "entry");
    if (entry.isPresent() == (outcome == Outcome.MISSING)) {
      throw new IllegalArgumentException(outcome + " " + (entry.isPresent() ? "carries no entry" : "needs the entry"));
    }
  }

  /**
   * Decides from the entry as stored after an attempt.
   *
   * @param written whether this call's write landed
   * @param after the entry as read after the attempt
   * @return the result
   */
  public static RequeueResult of(boolean written, Optional<OutboxEntry> after) {
    if (after.isEmpty()) {
      return new RequeueResult(Outcome.MISSING, after);
    }
    return new RequeueResult(written ? Outcome.REQUEUED : Outcome.NOT_DEAD_LETTERED, after);
  }
}
