package io.claimedoutbox.adapter.jpa;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;

/**
 * Reports how the transaction it is registered with ended: {@code committed} after a commit,
 * {@code notCommitted} after anything else (a rollback, or an outcome the transaction manager could
 * not tell), so a drain that kept room for its entries gets it back.
 */
final class AfterCompletion implements Synchronization {

  private final Runnable committed;
  private final Runnable notCommitted;

  AfterCompletion(Runnable committed, Runnable notCommitted) {
    this.committed = committed;
    this.notCommitted = notCommitted;
  }

  @Override
  public void beforeCompletion() {
    // nothing is decided before completion
  }

  @Override
  public void afterCompletion(int status) {
    if (status == Status.STATUS_COMMITTED) {
      committed.run();
    } else {
      notCommitted.run();
    }
  }
}
