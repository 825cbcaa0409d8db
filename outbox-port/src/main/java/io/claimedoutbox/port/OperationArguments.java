package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import java.time.Duration;

/** The argument checks every {@link OutboxOperations} implementation runs first, before any I/O. */
public final class OperationArguments {
  private OperationArguments() {}

  /**
   * @param query a dead-letter query
   * @return the query
   */
  public static DeadLetterQuery check(DeadLetterQuery query) {
    return Arguments.requireNonNull(query, "query");
  }

  /**
   * @param olderThan the purge age
   * @param batchSize the purge batch
   */
  public static void checkPurge(Duration olderThan, int batchSize) {
    checkAge(olderThan);
    Arguments.requirePositive(batchSize, "batchSize");
    if (batchSize > OutboxOperations.MAX_BATCH) {
      throw new IllegalArgumentException("batchSize must be at most " + OutboxOperations.MAX_BATCH + ", was " + batchSize);
    }
  }

  /**
   * @param olderThan a purge age
   */
  public static void checkAge(Duration olderThan) {
    Arguments.requireNonNull(olderThan, "olderThan");
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("olderThan must not be negative, was " + olderThan);
    }
  }

  /**
   * @param id an entry id
   * @return the id
   */
  public static EntryId checkId(EntryId id) {
    return Arguments.requireNonNull(id, "id");
  }
}
