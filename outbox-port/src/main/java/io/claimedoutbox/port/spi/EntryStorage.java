package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The five primitives a backend provides so that {@link StorageBackedOutboxStore} can implement the
 * whole store contract over it: the claim fence, the outcomes, batching and argument checks are
 * written once there, and an adapter writes only how entries are kept.
 *
 * <p>What the store relies on: {@link #compareAndSet} is atomic (no other write to the entry can
 * land between its revision check and its write); every method either completes or throws
 * {@link OutboxStoreException} having written nothing, except that {@link #compareAndSet} throws
 * {@link WriteOutcomeUnknownException} when its write was sent and the answer lost; a stored entry
 * that cannot be decoded is
 * reported as {@link UndecodableEntryException} naming it, never skipped. {@link EntryFields} turns
 * entries into named fields and back, for backends that keep fields or documents.
 *
 * <p>Implementations must be thread-safe.
 */
public interface EntryStorage {

  /**
   * Stores new entries, all or none.
   *
   * @param entries entries with ids that are not stored yet
   */
  void insertAll(List<OutboxEntry> entries);

  /**
   * Reads one entry.
   *
   * @param id the entry
   * @return the stored entry, empty when there is none
   */
  Optional<OutboxEntry> read(EntryId id);

  /**
   * Replaces {@code expected} with {@code next} if the stored entry is still at
   * {@code expected.revision()}: one atomic compare-and-set on the revision.
   *
   * @param expected the entry as read
   * @param next the entry to store, same id, a higher revision
   * @return whether the write happened; {@code false} when the entry changed or is gone
   * @throws WriteOutcomeUnknownException when the write was sent but its answer was lost
   */
  boolean compareAndSet(OutboxEntry expected, OutboxEntry next);

  /**
   * Deletes one entry.
   *
   * @param id the entry
   * @return whether there was one
   */
  boolean remove(EntryId id);

  /**
   * The entries a claim at {@code now} may take: due at {@code now}
   * ({@link OutboxEntry#isDue(Instant)}) and each the first unfinished entry of its ordering key
   * ({@link io.claimedoutbox.domain.AppendOrder}), oldest due time first, at most {@code limit}.
   * The store checks due-ness again when it claims, so a backend may return a few that stopped
   * being due; it may not return a later entry of a key whose earlier entry is unfinished.
   *
   * @param now the claim time
   * @param limit the most to return, at least 1
   * @return the candidates
   */
  List<OutboxEntry> dueCandidates(Instant now, int limit);
}
