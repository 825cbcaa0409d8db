package io.claimedoutbox.conformance;

import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The lifecycle of an executor a test drives by hand ({@link ManualExecutor}, {@link ManualScheduler}):
 * nothing runs by itself, so there is nothing to shut down or to wait for.
 */
abstract class HandDrivenExecutor extends AbstractExecutorService {

  @Override
  public void shutdown() {}

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }
}
