package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import java.time.Duration;
import java.util.List;

/**
 * The argument checks every store runs first, before any I/O, so all adapters reject bad input
 * with the same exceptions and messages.
 */
public final class StoreArguments {

  private StoreArguments() {}

  /**
   * Checks the arguments of {@link OutboxClaimStore#claimDue}.
   *
   * @param worker who claims
   * @param maxEntries the batch bound
   * @param lease the lease length
   */
  public static void checkClaimDue(WorkerId worker, int maxEntries, Duration lease) {
    Arguments.requireNonNull(worker, "worker");
    Arguments.requirePositive(maxEntries, "maxEntries");
    Arguments.requirePositive(lease, "lease");
  }

  /**
   * Checks the arguments of a transition.
   *
   * @param claim the caller's claim
   * @param request the transition
   */
  public static void checkTransition(Claim claim, TransitionRequest request) {
    Arguments.requireNonNull(claim, "claim");
    Arguments.requireNonNull(request, "request");
  }

  /**
   * Checks a batch to append and returns an immutable copy.
   *
   * @param messages the batch
   * @return the same messages, immutable
   * @throws NullPointerException naming the index of the first {@code null} element
   */
  public static List<OutboxMessage> checkAppendAll(List<OutboxMessage> messages) {
    Arguments.requireNonNull(messages, "messages");
    for (int i = 0; i < messages.size(); i++) {
      Arguments.requireNonNull(messages.get(i), "messages[" + i + "]");
    }
    return List.copyOf(messages);
  }
}
