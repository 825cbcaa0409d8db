package io.claimedoutbox.conformance;

import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;

/**
 * A store that also releases what a fixture built for it (a client, a pool) when the suite closes
 * it; fixtures use it for {@link OutboxStoreFixture#openUnreachableStore}.
 */
public final class ClosingStore extends ForwardingOutboxStore implements AutoCloseable {

  private final Runnable release;

  /**
   * @param store the store
   * @param release what to release when the store is closed
   */
  public ClosingStore(OutboxClaimOutcomeStore store, Runnable release) {
    super(store);
    this.release = release;
  }

  @Override
  public void close() {
    release.run();
  }
}
