package io.claimedoutbox.port;

/**
 * What a store's session listening for other processes' commits is doing (PostgreSQL's
 * {@code LISTEN} session, MongoDB's change stream; each adapter's {@code listenState()}). Whatever
 * it is, the drains keep polling: listening only makes them claim sooner.
 */
public enum ListenState {
  /**
   * The store has no such session: its backend has no push channel (MariaDB, H2), or listening is
   * turned off ({@code listenAcrossProcesses(false)}).
   */
  NONE,
  /** No drain of this store listens now. */
  IDLE,
  /**
   * The session is opening, or finding out whether the backend delivers (PostgreSQL: its own probe
   * coming back, up to 5 s; MongoDB: whether the server is a replica set).
   */
  STARTING,
  /** The session hears other processes' commits. */
  LISTENING,
  /** The session broke; it is reopened after a pause growing to 5 s, and the drains poll meanwhile. */
  BROKEN,
  /**
   * The backend cannot deliver to this session: PostgreSQL accepted {@code LISTEN} but its probe
   * never came back (a transaction pooler such as PgBouncer in transaction mode), or the MongoDB
   * server is not a replica set (no change streams). Said once in the log; the drains of this store
   * poll only and the session is not tried again.
   */
  POLLING_ONLY
}
