package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.WorkerId;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One call an {@link OutboxStoreListener} hears about, as the store started it: its arguments are
 * checked and nothing has been read or written yet.
 *
 * @param kind what the call does
 * @param worker who claims, for the claim calls; empty for the others (a transition's worker is its
 *     claim's owner)
 * @param transitions the transitions asked, in order, for {@link Kind#TRANSITION}; empty otherwise
 * @param entryId the entry, for {@link Kind#FIND} and {@link Kind#DELETE}; empty otherwise
 * @param size what the call asks for: the most entries to claim, the keys, the appended entries
 *     offered, the transitions or the messages; 1 for a find or a delete
 */
public record StoreCall(Kind kind, Optional<WorkerId> worker, List<ClaimTransition> transitions,
    Optional<EntryId> entryId, int size) {

  /** What a store call does; {@link #tagValue()} is its lower-case name, for metric tags. */
  public enum Kind {
    /** {@link OutboxClaimStore#claimDue}: a due query. */
    CLAIM_DUE,
    /** {@link OutboxClaimStore#claimNextOfKey} and {@link OutboxClaimStore#claimNextOfKeys}. */
    CLAIM_BY_KEYS,
    /** {@link OutboxClaimStore#claimAppended}: entries a commit notification named. */
    CLAIM_APPENDED,
    /**
     * Entries written already claimed by a drain of this JVM as they were appended
     * ({@link StoreCapability#CLAIM_ON_APPEND}), heard once their commit is: no store call of the
     * drain's, so its listener hears {@link OutboxStoreListener.CallListener#claimed} with no
     * time spent.
     */
    CLAIM_ON_APPEND,
    /** {@link OutboxClaimOutcomeStore#tryTransition} and {@link OutboxClaimOutcomeStore#tryTransitionAll}. */
    TRANSITION,
    /** Any append: {@link OutboxStore#appendAll} or an adapter's append in the caller's transaction. */
    APPEND,
    /** {@link OutboxStore#find}. */
    FIND,
    /** {@link OutboxStore#delete}. */
    DELETE;

    /** @return the kind's name in lower case, e.g. {@code claim_due} */
    public String tagValue() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** @return whether the call claims entries */
    public boolean claims() {
      return this == CLAIM_DUE || this == CLAIM_BY_KEYS || this == CLAIM_APPENDED || this == CLAIM_ON_APPEND;
    }
  }

  /** Checks that nothing is {@code null} and keeps an unmodifiable copy of the transitions. */
  public StoreCall {
    Arguments.requireNonNull(kind, "kind");
    Arguments.requireNonNull(worker, "worker");
    transitions = List.copyOf(Arguments.requireNonNull(transitions, "transitions"));
    Arguments.requireNonNull(entryId, "entryId");
  }

  /**
   * @param kind one of the claim kinds
   * @param worker who claims
   * @param size the most entries, the keys or the appended entries asked for
   * @return the call
   */
  public static StoreCall claim(Kind kind, WorkerId worker, int size) {
    if (!kind.claims()) {
      throw new IllegalArgumentException("kind must be a claim, was " + kind);
    }
    return new StoreCall(kind, Optional.of(worker), List.of(), Optional.empty(), size);
  }

  /**
   * @param transitions the checked batch (one element for a single call)
   * @return the call
   */
  public static StoreCall transition(List<ClaimTransition> transitions) {
    return new StoreCall(Kind.TRANSITION, Optional.empty(), transitions, Optional.empty(), transitions.size());
  }

  /**
   * @param messages how many messages are appended
   * @return the call
   */
  public static StoreCall append(int messages) {
    return new StoreCall(Kind.APPEND, Optional.empty(), List.of(), Optional.empty(), messages);
  }

  /**
   * @param kind {@link Kind#FIND} or {@link Kind#DELETE}
   * @param id the entry
   * @return the call
   */
  public static StoreCall ofEntry(Kind kind, EntryId id) {
    if (kind != Kind.FIND && kind != Kind.DELETE) {
      throw new IllegalArgumentException("kind must be FIND or DELETE, was " + kind);
    }
    return new StoreCall(kind, Optional.empty(), List.of(), Optional.of(id), 1);
  }
}
