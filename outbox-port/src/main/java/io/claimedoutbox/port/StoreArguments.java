package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import java.time.Duration;
import java.util.HashMap;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;

/**
 * The argument checks every store runs first, before any I/O, so all adapters reject bad input
 * with the same exceptions and messages.
 */
public final class StoreArguments {

  /**
   * The most entries one call may claim, and the most transitions one batch may carry: larger
   * requests are rejected before any I/O (a store sizes its work by what is due, but one call must
   * stay one bounded statement or script).
   */
  public static final int MAX_BATCH = 10_000;

  /** The payload limit of a claim that has none. */
  public static final long NO_PAYLOAD_LIMIT = Long.MAX_VALUE;

  private StoreArguments() {}

  /**
   * Checks the arguments of {@link OutboxClaimStore#claimDue}.
   *
   * @param worker who claims
   * @param maxEntries the batch bound, 1 to {@link #MAX_BATCH}
   * @param lease the lease length, positive and at most {@link io.claimedoutbox.domain.Instants#MAX_LEASE}
   */
  public static void checkClaimDue(WorkerId worker, int maxEntries, Duration lease) {
    checkClaimDue(worker, maxEntries, NO_PAYLOAD_LIMIT, lease);
  }

  /**
   * Checks the arguments of a claim bounded by payload bytes.
   *
   * @param worker who claims
   * @param maxEntries the batch size
   * @param maxPayloadBytes the most payload bytes, positive ({@link #NO_PAYLOAD_LIMIT} for none)
   * @param lease the lease length
   */
  public static void checkClaimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    Arguments.requireNonNull(worker, "worker");
    Arguments.requirePositive(maxEntries, "maxEntries");
    if (maxEntries > MAX_BATCH) {
      throw new IllegalArgumentException("maxEntries must be at most " + MAX_BATCH + ", was " + maxEntries);
    }
    if (maxPayloadBytes <= 0) {
      throw new IllegalArgumentException("maxPayloadBytes must be positive, was " + maxPayloadBytes);
    }
    Arguments.requireLease(lease, "lease");
  }

  /**
   * Checks the arguments of {@link OutboxClaimStore#claimNextOfKey}.
   *
   * @param worker who claims
   * @param orderingKey the key, as {@link io.claimedoutbox.domain.OutboxMessage#withOrderingKey} accepts it
   * @param lease the lease length
   */
  public static void checkClaimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    Arguments.requireNonNull(worker, "worker");
    Arguments.requireText(orderingKey, "orderingKey", 255);
    Arguments.requireLease(lease, "lease");
  }

  /**
   * Checks the arguments of {@link OutboxClaimStore#claimNextOfKeys}.
   *
   * @param worker who claims
   * @param orderingKeys the keys
   * @param lease the lease
   * @return the distinct keys, in the order first given
   */
  public static List<String> checkClaimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
    Arguments.requireNonNull(worker, "worker");
    Arguments.requireNonNull(orderingKeys, "orderingKeys");
    Arguments.requireLease(lease, "lease");
    if (orderingKeys.size() > MAX_BATCH) {
      throw new IllegalArgumentException(
          "orderingKeys must hold at most " + MAX_BATCH + " keys, held " + orderingKeys.size());
    }
    Set<String> distinct = new LinkedHashSet<>();
    int index = 0;
    for (String key : orderingKeys) {
      distinct.add(Arguments.requireText(key, "orderingKeys[" + index++ + "]", 255));
    }
    return List.copyOf(distinct);
  }

  /**
   * Checks the arguments of {@link OutboxClaimStore#claimAppended}.
   *
   * @param worker who claims
   * @param appended the entries as appended
   * @param lease the lease
   * @return {@code appended}, copied
   */
  public static List<OutboxEntry> checkClaimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    Arguments.requireNonNull(worker, "worker");
    Arguments.requireNonNull(appended, "appended");
    Arguments.requireLease(lease, "lease");
    if (appended.size() > MAX_BATCH) {
      throw new IllegalArgumentException("appended must hold at most " + MAX_BATCH + " entries, held " + appended.size());
    }
    for (int i = 0; i < appended.size(); i++) {
      Arguments.requireNonNull(appended.get(i), "appended[" + i + "]");
    }
    return List.copyOf(appended);
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

  /**
   * Checks a batch of transitions and returns an immutable copy: no {@code null} element, and no
   * entry twice (two transitions of one entry in one batch would make an outcome depend on its
   * position).
   *
   * @param transitions the batch
   * @return the same transitions, immutable
   * @throws NullPointerException naming the index of the first {@code null} element
   * @throws IllegalArgumentException naming both indexes when an entry appears twice
   */
  public static List<ClaimTransition> checkTransitionAll(List<ClaimTransition> transitions) {
    Arguments.requireNonNull(transitions, "transitions");
    if (transitions.size() > MAX_BATCH) {
      throw new IllegalArgumentException("transitions must be at most " + MAX_BATCH + ", were " + transitions.size());
    }
    Map<EntryId, Integer> seen = new HashMap<>();
    for (int i = 0; i < transitions.size(); i++) {
      ClaimTransition transition = Arguments.requireNonNull(transitions.get(i), "transitions[" + i + "]");
      Integer earlier = seen.putIfAbsent(transition.entryId(), i);
      if (earlier != null) {
        throw new IllegalArgumentException("transitions[" + i + "] repeats entry " + transition.entryId()
            + " of transitions[" + earlier + "]: one transition per entry in a batch");
      }
    }
    return List.copyOf(transitions);
  }
}
