package io.claimedoutbox.conformance;

/** Optional abilities of a fixture; rules that need one are reported as skipped without it. */
public enum FixtureCapability {
  /** {@link OutboxStoreFixture#holdRowLock} works: the backend has row locks a claim must skip. */
  ROW_LOCKS,
  /** {@link OutboxStoreFixture#openUnreachableStore} works: a store whose backend is down. */
  UNREACHABLE_BACKEND
}
