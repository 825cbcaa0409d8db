package io.claimedoutbox.conformance;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler for tests of a drain: tasks to run now wait in a queue, delayed tasks in a list with
 * the delay they asked for, and the test runs them on its own thread. Nothing runs by itself, so no
 * test sleeps and nothing races the test (a drain hands finished keys on through its scheduler).
 * Periodic tasks (lease renewal) are recorded and never run. Not thread-safe: one test thread.
 */
public final class ManualScheduler extends HandDrivenExecutor implements ScheduledExecutorService {

  private final Queue<Runnable> now = new ArrayDeque<>();
  private final List<Delayed> delayed = new ArrayList<>();

  /** Runs the tasks queued to run now, and those they queue, until none is left. */
  public void runQueued() {
    Runnable next;
    while ((next = now.poll()) != null) {
      next.run();
    }
  }

  /** @return whether tasks wait to run now */
  public boolean hasQueued() {
    return !now.isEmpty();
  }

  /** @return the delays of the delayed tasks not yet run or cancelled */
  public List<Duration> pendingDelays() {
    return delayed.stream().filter(task -> !task.isDone()).map(task -> task.delay).toList();
  }

  /** Runs every pending delayed task once (as if their time had come), then what they queue. */
  public void runDelayed() {
    List<Delayed> due = delayed.stream().filter(task -> !task.isDone()).toList();
    delayed.clear();
    due.forEach(Delayed::fire);
    runQueued();
  }

  @Override
  public void execute(Runnable command) {
    now.add(command);
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    Delayed task = new Delayed(command, Duration.ofNanos(unit.toNanos(delay)));
    delayed.add(task);
    return task;
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("the drain schedules runnables only");
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    return new Delayed(command, Duration.ofNanos(unit.toNanos(period)));
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    return new Delayed(command, Duration.ofNanos(unit.toNanos(delay)));
  }

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  /** One delayed task; cancelling it before it fires keeps it from ever running. */
  private static final class Delayed implements ScheduledFuture<Object> {
    private final Runnable command;
    private final Duration delay;
    private boolean cancelled;
    private boolean fired;

    Delayed(Runnable command, Duration delay) {
      this.command = command;
      this.delay = delay;
    }

    void fire() {
      if (!cancelled && !fired) {
        fired = true;
        command.run();
      }
    }

    @Override
    public synchronized boolean cancel(boolean mayInterruptIfRunning) {
      if (fired || cancelled) {
        return false;
      }
      cancelled = true;
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return cancelled || fired;
    }

    @Override
    public Object get() {
      return null;
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      return null;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(java.util.concurrent.Delayed other) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }
  }
}
