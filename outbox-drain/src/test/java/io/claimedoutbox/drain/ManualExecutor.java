package io.claimedoutbox.drain;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/** Holds submitted tasks until the test runs them, on the test's own thread, in order. */
final class ManualExecutor extends AbstractExecutorService {

  private final Queue<Runnable> queued = new ArrayDeque<>();

  int queued() {
    return queued.size();
  }

  void runAll() {
    Runnable next;
    while ((next = queued.poll()) != null) {
      next.run();
    }
  }

  @Override
  public void execute(Runnable command) {
    queued.add(command);
  }

  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.copyOf(queued);
  }

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
