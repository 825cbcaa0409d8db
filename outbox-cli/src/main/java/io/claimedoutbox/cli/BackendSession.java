package io.claimedoutbox.cli;

import io.claimedoutbox.port.OutboxClaimOutcomeStore;

/**
 * One backend opened for a command: a store over a fresh, empty outbox of the program's own (its
 * own schema, database, key prefix or collection, never the user's tables), and the backend's raw
 * compare-and-set, for benchmarks. Closing it removes what the program created.
 */
interface BackendSession extends AutoCloseable {

  /** @return a short human name, for example {@code PostgreSQL 15.20} */
  String label();

  /** @return the store over a fresh outbox */
  OutboxClaimOutcomeStore store();

  /**
   * A conformance fixture over this session's own namespace: the suite cleans, corrupts and races
   * there only, never in the user's data.
   *
   * @return the fixture
   */
  io.claimedoutbox.conformance.OutboxStoreFixture conformanceFixture();

  /** @return the backend's plain compare-and-set, prepared over {@code keys} rows */
  RawCompareAndSet rawCompareAndSet(int keys);

  @Override
  void close();
}
