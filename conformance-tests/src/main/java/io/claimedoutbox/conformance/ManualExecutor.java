package io.claimedoutbox.conformance;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;

/**
 * An executor for tests of code that hands work to an executor (a drain's handlers): it holds
 * submitted tasks until the test runs them, on the test's own thread, in order, so no test waits or
 * sleeps for background work.
 */
public final class ManualExecutor extends HandDrivenExecutor {

  private final Queue<Runnable> queued = new ArrayDeque<>();

  /** @return how many tasks wait to be run */
  public int queued() {
    return queued.size();
  }

  /** Runs every queued task, and the tasks they queue, until none is left. */
  public void runAll() {
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
  public List<Runnable> shutdownNow() {
    return List.copyOf(queued);
  }
}
