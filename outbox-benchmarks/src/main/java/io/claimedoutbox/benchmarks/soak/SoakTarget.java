package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.port.OutboxClaimOutcomeStore;

/** A backend the soak drains while it breaks the drains' connections. */
interface SoakTarget extends AutoCloseable {

  String name();

  /** @return the store the drains use; its connections are the ones {@link #killConnections()} breaks */
  OutboxClaimOutcomeStore store();

  /** Breaks every connection of the drains' store, the way the server would. */
  void killConnections() throws Exception;

  /** @return whether {@link #restartServer()} works */
  default boolean canRestart() {
    return false;
  }

  /** Kills the server hard ({@code kill -9}) and starts it again on its own data. */
  default void restartServer() throws Exception {
    throw new UnsupportedOperationException(name() + " is a shared server; the soak never restarts it");
  }

  @Override
  void close() throws Exception;
}
