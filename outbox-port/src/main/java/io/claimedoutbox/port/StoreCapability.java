package io.claimedoutbox.port;

/** A property of a store's implementation that callers and the conformance suite rely on. */
public enum StoreCapability {
  /**
   * The store evaluates the claim fence and writes in one atomic step (for example one Redis Lua
   * script). It therefore never observes a lost compare-and-set and never reports
   * {@code CONCURRENCY_LOST}; outcomes 1–4 are decided from the state inside that step.
   */
  ATOMIC_EVALUATION,
  /**
   * Appends can join a transaction the caller already holds, so an entry is written exactly when
   * the caller's business change commits.
   */
  TRANSACTIONAL_APPEND,
  /**
   * {@link OutboxClaimStore#claimNextOfKey} finds a key's next entry with one lookup in an index of
   * each key's unfinished entries, so a drain hands a busy key on without a full due query.
   */
  CLAIM_BY_KEY,
  /**
   * {@link OutboxClaimStore#claimNextOfKeys} claims the next entries of many keys in a fixed number
   * of round trips, so a drain hands on every key a result write released with one call, however
   * many entries it holds; without it a drain hands a key on by key only while it holds nothing else.
   * Implies {@link #CLAIM_BY_KEY}.
   */
  CLAIM_BY_KEYS,
  /**
   * {@link OutboxClaimStore#claimAppended} claims entries it is handed as appended with one
   * conditional write per batch (no due query), so a drain woken by a commit in its own JVM claims
   * what was committed in one round trip.
   */
  CLAIM_APPENDED,
  /**
   * An append whose commit the store sees offers each due entry without an ordering key to the
   * drains of its JVM ({@link CommitNotifications.Listener#takeOnAppend}); an entry a drain takes is
   * written already claimed by it, in the append's own write, and handed to it when the commit is
   * reported: no claim round trip at all. Fenced like every claim: a drain that dies leaves a lease
   * to expire.
   */
  CLAIM_ON_APPEND
}
