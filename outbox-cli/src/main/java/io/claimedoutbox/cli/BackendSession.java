package io.claimedoutbox.cli;

import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawCompareAndSet;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.function.IntFunction;

/**
 * One backend opened for a command, through the adapter's test kit: a store over a fresh, empty
 * outbox of the program's own (its own schema, database, key prefix or collection, never the
 * user's tables), the conformance fixture over the same namespace, and the backend's raw
 * compare-and-set, for benchmarks. Closing it removes what the program created.
 *
 * @param label a short human name, for example {@code PostgreSQL 15.20 (JPA adapter, …)}
 * @param store the store over the fresh outbox
 * @param conformanceFixture the fixture the suite cleans, corrupts and races in, never the user's data
 * @param rawCompareAndSets prepares the backend's plain compare-and-set over a number of keys
 * @param release removes what the session created and closes its clients
 */
record BackendSession(String label, OutboxClaimOutcomeStore store, OutboxStoreFixture conformanceFixture,
    IntFunction<RawCompareAndSet> rawCompareAndSets, Runnable release) implements AutoCloseable {

  /**
   * @param keys how many keys to prepare
   * @return the backend's plain compare-and-set
   */
  RawCompareAndSet rawCompareAndSet(int keys) {
    return rawCompareAndSets.apply(keys);
  }

  @Override
  public void close() {
    release.run();
  }
}
