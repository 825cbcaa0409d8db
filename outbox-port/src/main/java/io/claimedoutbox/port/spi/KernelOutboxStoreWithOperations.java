package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OperationArguments;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.RequeueResult;
import java.time.Duration;
import java.util.List;

/**
 * A {@link KernelOutboxStore} that also offers the operator's calls ({@link OutboxOperations}), with
 * their argument checks written once: the public methods that take arguments are final, check them
 * ({@link OperationArguments}) before any I/O, and only then run the adapter's primitive. An adapter
 * writes how its backend lists, requeues, counts and purges, with the arguments already checked.
 *
 * <p>Thread-safe when the primitives are.
 */
public abstract class KernelOutboxStoreWithOperations extends KernelOutboxStore implements OutboxOperations {

  /** For subclasses. */
  protected KernelOutboxStoreWithOperations() {}

  @Override
  public final List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    return deadLettersChecked(OperationArguments.check(query));
  }

  @Override
  public final RequeueResult requeue(EntryId id) {
    return requeueChecked(OperationArguments.checkId(id));
  }

  @Override
  public final int purgeFinished(Duration olderThan, int batchSize) {
    OperationArguments.checkPurge(olderThan, batchSize);
    return purgeFinishedChecked(olderThan, batchSize);
  }

  @Override
  public final long countPurgeable(Duration olderThan) {
    OperationArguments.checkAge(olderThan);
    return countPurgeableChecked(olderThan);
  }

  /**
   * Lists dead letters as {@link #deadLetters} promises.
   *
   * @param query checked
   * @return the page, in id order
   */
  protected abstract List<OutboxEntry> deadLettersChecked(DeadLetterQuery query);

  /**
   * Requeues one dead letter as {@link #requeue} promises.
   *
   * @param id checked
   * @return what the requeue did, with the entry it observed
   */
  protected abstract RequeueResult requeueChecked(EntryId id);

  /**
   * Deletes one batch of finished entries as {@link #purgeFinished} promises.
   *
   * @param olderThan checked: not negative
   * @param batchSize checked: 1 to {@link #MAX_BATCH}
   * @return how many were deleted
   */
  protected abstract int purgeFinishedChecked(Duration olderThan, int batchSize);

  /**
   * Counts what a purge would delete as {@link #countPurgeable} promises.
   *
   * @param olderThan checked: not negative
   * @return how many finished entries are that old
   */
  protected abstract long countPurgeableChecked(Duration olderThan);
}
