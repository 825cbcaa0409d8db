package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import java.util.List;
import java.util.Optional;

/**
 * Appends, reads and deletes outbox entries.
 *
 * <p>Implementations are thread-safe. Every method checks its arguments before any I/O and
 * throws {@link NullPointerException} or {@link IllegalArgumentException} naming the bad
 * argument, writing nothing. Infrastructure failures are {@link OutboxStoreException}s; a stored
 * row that cannot be decoded is an {@link UndecodableEntryException} naming the entry.
 *
 * <p>Adapters for transactional backends also offer an append that joins the caller's own
 * transaction (see the adapter's documentation and {@link StoreCapability#TRANSACTIONAL_APPEND});
 * the methods here run in a transaction of their own.
 */
public interface OutboxStore {

  /**
   * Appends one message as a new {@code PENDING} entry at revision 1: a batch of one.
   *
   * @param message what to append
   * @return the stored entry, with its new id
   */
  default OutboxEntry append(OutboxMessage message) {
    Arguments.requireNonNull(message, "message");
    return appendAll(List.of(message)).get(0);
  }

  /**
   * Appends messages atomically, in order: either all are stored or none (a {@code null} element
   * is rejected before anything is written).
   *
   * @param messages what to append; may be empty
   * @return the stored entries in the order of {@code messages}
   */
  List<OutboxEntry> appendAll(List<OutboxMessage> messages);

  /**
   * Reads the entry as stored now.
   *
   * @param id the entry
   * @return the entry, or empty when no such row exists
   */
  Optional<OutboxEntry> find(EntryId id);

  /**
   * Deletes the entry whatever its status (retention, administration). A worker holding a claim on
   * it then gets {@code MISSING} for its transitions.
   *
   * @param id the entry
   * @return {@code true} when a row was deleted, {@code false} when there was none
   */
  boolean delete(EntryId id);
}
