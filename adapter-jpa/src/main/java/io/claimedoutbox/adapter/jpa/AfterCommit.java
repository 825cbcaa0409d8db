package io.claimedoutbox.adapter.jpa;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;

/** Runs an action once the transaction it is registered with has committed; a rollback runs nothing. */
final class AfterCommit implements Synchronization {

  private final Runnable action;

  AfterCommit(Runnable action) {
    this.action = action;
  }

  @Override
  public void beforeCompletion() {
    // nothing is decided before completion
  }

  @Override
  public void afterCompletion(int status) {
    if (status == Status.STATUS_COMMITTED) {
      action.run();
    }
  }
}
