package io.claimedoutbox.spring;

import io.claimedoutbox.drain.OutboxRetention;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.springframework.context.SmartLifecycle;

/** The retention job on a daemon thread of its own, from the context's start to its stop. */
public final class OutboxRetentionLifecycle implements SmartLifecycle {

  private final OutboxRetention retention;
  private ScheduledExecutorService scheduler;

  OutboxRetentionLifecycle(OutboxRetention retention) {
    this.retention = retention;
  }

  /** @return the job, for what it purged */
  public OutboxRetention retention() {
    return retention;
  }

  @Override
  public synchronized void start() {
    scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
      Thread thread = new Thread(runnable, "claimed-outbox-retention");
      thread.setDaemon(true);
      return thread;
    });
    retention.start(scheduler);
  }

  @Override
  public synchronized void stop() {
    retention.close();
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return scheduler != null;
  }

  @Override
  public int getPhase() {
    return OutboxDrainLifecycle.PHASE;
  }
}
