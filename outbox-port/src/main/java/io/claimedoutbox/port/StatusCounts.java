package io.claimedoutbox.port;

import io.claimedoutbox.domain.EntryStatus;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * How many entries a store holds in each status. Immutable.
 *
 * @param counts a count per status; statuses not in the map count zero
 */
public record StatusCounts(Map<EntryStatus, Long> counts) {

  /**
   * Copies the counts, filling in zeros.
   *
   * @throws NullPointerException if {@code counts} is null
   * @throws IllegalArgumentException if a count is negative
   */
  public StatusCounts {
    EnumMap<EntryStatus, Long> complete = new EnumMap<>(EntryStatus.class);
    for (EntryStatus status : EntryStatus.values()) {
      complete.put(status, 0L);
    }
    io.claimedoutbox.domain.Arguments.requireNonNull(counts, "counts").forEach((status, count) -> {
      if (count < 0) {
        throw new IllegalArgumentException("count of " + status + " must not be negative, was " + count);
      }
      complete.merge(status, count, Long::sum);
    });
    counts = Collections.unmodifiableMap(complete);
  }

  /**
   * @param status a status
   * @return how many entries have it
   */
  public long of(EntryStatus status) {
    return counts.get(status);
  }

  /** @return entries not yet delivered or dead-lettered: the backlog */
  public long unfinished() {
    return of(EntryStatus.PENDING) + of(EntryStatus.CLAIMED) + of(EntryStatus.FAILED);
  }

  /** @return all entries */
  public long total() {
    return counts.values().stream().mapToLong(Long::longValue).sum();
  }
}
