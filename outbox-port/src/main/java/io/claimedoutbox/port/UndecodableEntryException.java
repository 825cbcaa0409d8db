package io.claimedoutbox.port;

import io.claimedoutbox.domain.EntryId;

/**
 * A stored row exists but cannot be read as an entry (a hand-edited hash, a document missing a
 * field, an unknown status). Stores raise it instead of treating the row as missing or skipping
 * it, so the damage is seen and repaired.
 */
public class UndecodableEntryException extends OutboxStoreException {

  private static final long serialVersionUID = 1L;

  private final transient EntryId entryId;

  /**
   * @param entryId the entry whose row is damaged
   * @param problem what is wrong with it
   * @param cause the decoding failure, may be {@code null}
   */
  public UndecodableEntryException(EntryId entryId, String problem, Throwable cause) {
    super("outbox entry " + entryId + " cannot be decoded: " + problem, cause);
    this.entryId = entryId;
  }

  /** @return the entry whose row is damaged */
  public EntryId entryId() {
    return entryId;
  }
}
