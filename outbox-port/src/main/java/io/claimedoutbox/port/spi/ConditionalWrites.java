package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.UndecodableEntryException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The storage primitives {@link TransitionKernel} decides claimed transitions over: conditional
 * writes and reads by id. An adapter writes only how its backend stores and compares; the claim
 * fence, the outcomes, the re-reads and the lost answers are the kernel's.
 *
 * <p>What the kernel relies on: each {@link ConditionalWrite} is atomic (nothing lands between its
 * comparison and its write); {@link #writeAll} either answers every element, or throws
 * {@link WriteOutcomeUnknownException} when the writes were sent and the answer lost (its subclass
 * {@link WriteStillRunningException} when the backend may still be running them), or throws
 * another {@link OutboxStoreException} having written nothing. A stored entry that cannot be
 * decoded is reported as {@link UndecodableEntryException} naming it.
 *
 * <p>Implementations must be thread-safe.
 */
public interface ConditionalWrites {

  /**
   * Writes each element where its entry is still at the element's expected revision and held under
   * its claim, in as few round trips as the backend allows. The elements name distinct entries.
   *
   * @param writes at least one
   * @return one answer per element, in order
   * @throws WriteOutcomeUnknownException when the writes were sent and the answer lost
   */
  List<WriteAnswer> writeAll(List<ConditionalWrite> writes);

  /**
   * Reads one entry.
   *
   * @param id the entry
   * @return the stored entry, empty when there is none
   */
  Optional<OutboxEntry> read(EntryId id);

  /**
   * Reads many entries; a backend that can read them in one round trip overrides this.
   *
   * @param ids distinct entries
   * @return every id mapped to its stored entry, or to empty when there is none
   */
  default Map<EntryId, Optional<OutboxEntry>> readAll(List<EntryId> ids) {
    Map<EntryId, Optional<OutboxEntry>> stored = new LinkedHashMap<>();
    ids.forEach(id -> stored.put(id, read(id)));
    return stored;
  }
}
