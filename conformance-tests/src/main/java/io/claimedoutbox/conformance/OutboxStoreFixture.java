package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What an adapter's tests supply so the suite can run against it: stores over a clean backend,
 * and direct access to the stored rows. One fixture serves a whole test class; the suite calls
 * {@link #clean()} before every test.
 */
public interface OutboxStoreFixture {

  /**
   * @return the backend's name as the test report shows it, for example {@code PostgreSQL 15}
   */
  String backendName();

  /**
   * @return the optional abilities this fixture has
   */
  Set<FixtureCapability> capabilities();

  /** Deletes every stored entry, so the next test starts from an empty outbox. */
  void clean();

  /**
   * Builds the store under test over the backend. Called once per test.
   *
   * @param context the clock the store must use and the hook it must call before a write
   * @return the store; closed after the test if it is {@link AutoCloseable}
   */
  OutboxClaimOutcomeStore openStore(FixtureContext context);

  /**
   * Reads a row directly from the backend, bypassing the store.
   *
   * @param id the entry
   * @return the raw row, empty when there is none
   */
  Optional<RawEntryState> readRaw(EntryId id);

  /**
   * Counts stored rows directly in the backend.
   *
   * @return the number of rows
   */
  long countRaw();

  /**
   * Damages a stored row so that it can no longer be decoded (an unknown status, a missing field),
   * the way a hand edit would.
   *
   * @param id the entry to damage
   */
  void corrupt(EntryId id);

  /**
   * Rules that cannot be checked on this backend because it is a stand-in that behaves differently
   * from the real system in a way the rule depends on (for example an in-process MongoDB
   * replacement). Each is reported skipped with its reason; a real backend declares none.
   *
   * @return the rules to skip and why, empty for a real backend
   */
  default Map<Rule, String> standInGaps() {
    return Map.of();
  }

  /**
   * Holds the backend's row lock on {@code id} (as another worker's open transaction would) while
   * {@code whileLocked} runs on the calling thread. Only called with {@link FixtureCapability#ROW_LOCKS}.
   *
   * @param id the row to lock
   * @param whileLocked what to run while the lock is held
   */
  default void holdRowLock(EntryId id, Runnable whileLocked) {
    throw new UnsupportedOperationException(backendName() + " fixture has no row locks");
  }

  /**
   * A store whose backend cannot be reached, to prove that bad input is rejected before any I/O
   * and that infrastructure failures surface as the project's exceptions. Only called with
   * {@link FixtureCapability#UNREACHABLE_BACKEND}.
   *
   * @param context as for {@link #openStore}
   * @return the store, if the fixture can build one
   */
  default Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    return Optional.empty();
  }

  /**
   * A store like {@link #openStore}'s whose every connection goes through {@code proxies}: for each
   * server the store talks to, connect to {@code proxies.proxyFor(host, port)} instead (a pool or
   * client of its own, closed when the store is, see {@link ClosingStore}). Only called with
   * {@link FixtureCapability#FAULT_PROXY}.
   *
   * @param context as for {@link #openStore}
   * @param proxies the suite's proxies
   * @return the store
   */
  default OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
    throw new UnsupportedOperationException(backendName() + " fixture has no fault proxy");
  }

  /**
   * A store that takes "now" from its server instead of {@code context.clock()}: the adapter's
   * store-time option, given the context's clock as well so the suite can prove it is ignored. Only
   * called with {@link FixtureCapability#STORE_TIME}.
   *
   * @param context the clock the store must <em>not</em> use, and the write hook
   * @return the store
   */
  default OutboxClaimOutcomeStore openStoreOnStoreTime(FixtureContext context) {
    throw new UnsupportedOperationException(backendName() + " fixture has no store-time stores");
  }
}
