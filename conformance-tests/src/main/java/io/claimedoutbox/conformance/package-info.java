/**
 * <b>test kit.</b> The conformance suite adapter authors run against their store: the rules, the fixtures an
 * adapter supplies ({@code OutboxStoreFixture}, {@code BackendFixture}), deterministic clocks and
 * executors, fault proxies and the history check. Test scope only; never on an application's
 * runtime classpath.
 */
package io.claimedoutbox.conformance;
