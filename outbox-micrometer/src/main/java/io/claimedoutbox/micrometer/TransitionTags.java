package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.TransitionKind;
import java.util.List;

/** The tag values of one transition call, shared by its timer and its observation. */
final class TransitionTags {

  private TransitionTags() {}

  /** @return the batch's kind, or {@code mixed} for a batch of several kinds */
  static String kindOf(List<ClaimTransition> batch) {
    TransitionKind first = batch.get(0).kind();
    for (ClaimTransition transition : batch) {
      if (transition.kind() != first) {
        return "mixed";
      }
    }
    return first.tagValue();
  }

  /** @return a single call's outcome; for a batch {@code applied} when every element was, else {@code not_applied} */
  static String outcomeOf(List<ClaimTransitionResult> results) {
    if (results.size() == 1) {
      return results.get(0).outcome().tagValue();
    }
    for (ClaimTransitionResult result : results) {
      if (!result.isApplied()) {
        return "not_applied";
      }
    }
    return "applied";
  }
}
