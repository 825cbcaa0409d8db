package io.claimedoutbox.port;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What an operator (or a scheduled job) does with an outbox besides draining it: look at the
 * backlog, list and requeue dead letters, purge finished entries.
 *
 * <p>The adapters' stores implement it next to {@link OutboxClaimOutcomeStore}. Every method checks
 * its arguments before any I/O, throwing {@link NullPointerException} or
 * {@link IllegalArgumentException} naming the argument; infrastructure failures are
 * {@link OutboxStoreException}s. Time ("now", ages) is the store's clock, the one its claims use.
 * None of these calls locks out claims: counts and lists read, a requeue writes one entry with the
 * same compare-and-set a transition uses, and a purge deletes only finished entries, which no claim
 * reads, in batches of a bounded size.
 */
public interface OutboxOperations {

  /** The largest purge batch and dead-letter page. */
  int MAX_BATCH = 10_000;

  /**
   * Counts entries by status, as one consistent read where the backend offers one (SQL, one Redis
   * script per shard) and as a sum of per-status counts otherwise.
   *
   * @return a count for every status, zero where there are none
   */
  StatusCounts countByStatus();

  /**
   * How long the oldest due entry has waited: now minus the earliest due time among unfinished
   * entries that are due — pending or failed entries whose available or retry time has come
   * (including keyed entries held back behind an earlier entry of their key) and claimed entries
   * whose lease has ended.
   *
   * @return the age, empty when nothing is due
   */
  Optional<Duration> oldestDueAge();

  /**
   * One page of dead-lettered entries in id order (which is append order for generated ids).
   *
   * @param query topic filter, the id to start after, the page size
   * @return up to {@code query.limit()} entries with ids greater than {@code query.after()}
   */
  List<OutboxEntry> deadLetters(DeadLetterQuery query);

  /**
   * Puts one dead-lettered entry back in the queue ({@link OutboxEntry#requeued}): due now, its
   * claim generation raised so a stale holder of an earlier claim loses. Atomic: an entry that
   * stopped being a dead letter meanwhile is reported as such, not overwritten.
   *
   * @param id the entry
   * @return what happened, with the entry as stored after the call
   */
  RequeueResult requeue(EntryId id);

  /**
   * Requeues every dead letter the query matches, page by page ({@code query.limit()} at a time,
   * starting after {@code query.after()}), each with {@link #requeue}: a dead letter written while it
   * runs may or may not be included.
   *
   * @param query the topic filter, start and page size
   * @return how many were requeued
   */
  default long requeueAll(DeadLetterQuery query) {
    OperationArguments.check(query);
    long requeued = 0;
    DeadLetterQuery page = query;
    List<OutboxEntry> letters;
    while (!(letters = deadLetters(page)).isEmpty()) {
      for (OutboxEntry letter : letters) {
        if (requeue(letter.id()).outcome() == RequeueResult.Outcome.REQUEUED) {
          requeued++;
        }
      }
      EntryId last = letters.get(letters.size() - 1).id();
      if (page.after().filter(after -> last.compareTo(after) <= 0).isPresent()) {
        // a store whose pages do not move past the id they start after would loop here forever
        throw new OutboxStoreException("deadLetters returned a page ending at " + last + ", not after "
            + page.after().get() + ": its paging does not move on");
      }
      page = page.after(last);
    }
    return requeued;
  }

  /**
   * Deletes one batch of finished ({@link EntryStatus#DELIVERED} or {@link EntryStatus#DEAD_LETTERED})
   * entries whose last write is older than {@code olderThan}, oldest first. Call it again while it
   * returns {@code batchSize}; {@link #purgeAll} does. A dead letter requeued meanwhile is not
   * deleted.
   *
   * @param olderThan the least age of the last write, not negative
   * @param batchSize the most to delete in this call, 1 to {@link #MAX_BATCH}
   * @return how many were deleted
   */
  int purgeFinished(Duration olderThan, int batchSize);

  /**
   * How many entries {@link #purgeAll} with the same age would delete if it ran now: the finished
   * entries whose last write is older than {@code olderThan}. Reads only (an operator's dry run);
   * entries finishing or requeued meanwhile change the figure.
   *
   * @param olderThan the least age of the last write, not negative
   * @return how many finished entries are that old
   */
  long countPurgeable(Duration olderThan);

  /**
   * Purges in batches until a batch comes back short.
   *
   * @param olderThan the least age of the last write, not negative
   * @param batchSize the most to delete per call, 1 to {@link #MAX_BATCH}
   * @return how many were deleted in all
   */
  default long purgeAll(Duration olderThan, int batchSize) {
    OperationArguments.checkPurge(olderThan, batchSize);
    long purged = 0;
    int batch;
    do {
      batch = purgeFinished(olderThan, batchSize);
      purged += batch;
    } while (batch == batchSize);
    return purged;
  }
}
