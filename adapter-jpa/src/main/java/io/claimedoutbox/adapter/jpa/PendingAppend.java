package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Entries appended on a caller's connection ({@link JpaOutboxStore#beginAppendOn}) whose
 * transaction has not ended yet, and where the caller reports how it ended. Report exactly once,
 * after the transaction ended; a second report is ignored. Thread-safe.
 */
public final class PendingAppend {

  private final List<OutboxEntry> entries;
  private final Runnable committed;
  private final Runnable rolledBack;
  private final AtomicBoolean reported = new AtomicBoolean();

  PendingAppend(List<OutboxEntry> entries, Runnable committed, Runnable rolledBack) {
    this.entries = List.copyOf(entries);
    this.committed = committed;
    this.rolledBack = rolledBack;
  }

  /**
   * @return the entries as they are stored once the caller commits: {@code PENDING}, or
   *     {@code CLAIMED} by a drain of this JVM that took them on append
   */
  public List<OutboxEntry> entries() {
    return entries;
  }

  /** The caller's transaction committed: the drains of this JVM take the entries now. */
  public void committed() {
    if (reported.compareAndSet(false, true)) {
      committed.run();
    }
  }

  /** The caller's transaction rolled back: nothing was stored, and no drain waits for the entries. */
  public void rolledBack() {
    if (reported.compareAndSet(false, true)) {
      rolledBack.run();
    }
  }
}
