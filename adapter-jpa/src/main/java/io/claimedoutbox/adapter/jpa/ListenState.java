package io.claimedoutbox.adapter.jpa;

/**
 * What a store's session listening for other processes' commits is doing
 * ({@link JpaOutboxStore#listenState()}). Whatever it is, the drains keep polling: listening only
 * makes them claim sooner.
 */
public enum ListenState {
  /** The store has no such session: not PostgreSQL, or {@code listenAcrossProcesses(false)}. */
  NONE,
  /** No drain of this store listens now. */
  IDLE,
  /** The session is opening, or waiting for its own probe to come back (up to 5 s). */
  STARTING,
  /** The session hears other processes' commits. */
  LISTENING,
  /** The session broke; it is reopened after a pause growing to 5 s, and the drains poll meanwhile. */
  BROKEN,
  /**
   * {@code LISTEN} was accepted but its probe never came back (a transaction pooler such as PgBouncer
   * in transaction mode): said once at WARN, and the drains of this store poll only.
   */
  POLLING_ONLY
}
