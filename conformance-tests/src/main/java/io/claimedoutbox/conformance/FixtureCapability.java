package io.claimedoutbox.conformance;

/** Optional abilities of a fixture; rules that need one are reported as skipped without it. */
public enum FixtureCapability {
  /** {@link OutboxStoreFixture#holdRowLock} works: the backend has row locks a claim must skip. */
  ROW_LOCKS,
  /** {@link OutboxStoreFixture#openUnreachableStore} works: a store whose backend is down. */
  UNREACHABLE_BACKEND,
  /**
   * {@link OutboxStoreFixture#openStoreThrough} works: a store whose connections go through the
   * suite's {@link FaultProxies}, so the fault rules (F) can cut and delay them.
   */
  FAULT_PROXY,
  /**
   * {@link OutboxStoreFixture#openStoreOnStoreTime} works: a store that takes "now" from its server
   * (the adapter's {@code storeTime()} option), checked by rule C12.
   */
  STORE_TIME
}
