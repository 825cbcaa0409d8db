package io.claimedoutbox.spring;

import io.claimedoutbox.drain.OutboxDrain;
import java.time.Duration;
import org.springframework.context.SmartLifecycle;

/**
 * The drain as a lifecycle bean: started once the context is refreshed (after every singleton, so
 * handlers find their collaborators ready), stopped first at shutdown (a late phase), gracefully:
 * no new claims, claims no handler started are released, running handlers get the shutdown timeout.
 */
public final class OutboxDrainLifecycle implements SmartLifecycle {

  /** Late: started after, and stopped before, the beans handlers use (web server, brokers). */
  public static final int PHASE = Integer.MAX_VALUE - 2048;

  private final OutboxDrain drain;
  private final Duration shutdownTimeout;
  private volatile boolean running;

  OutboxDrainLifecycle(OutboxDrain drain, Duration shutdownTimeout) {
    this.drain = drain;
    this.shutdownTimeout = shutdownTimeout;
  }

  /** @return the drain, for its stats */
  public OutboxDrain drain() {
    return drain;
  }

  @Override
  public void start() {
    drain.start();
    running = true;
  }

  @Override
  public void stop() {
    drain.stop(shutdownTimeout);
    running = false;
  }

  @Override
  public boolean isRunning() {
    return running;
  }

  @Override
  public int getPhase() {
    return PHASE;
  }
}
