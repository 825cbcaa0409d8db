/**
 * <b>test kit.</b> The adapter's conformance fixture, for the test scope of whoever runs the suite against it
 * (the adapter's own build, the {@code outbox} program, an application checking its backend): the
 * fixture, the store builder it hands the suite and the backend's raw compare-and-set. Never on an
 * application's runtime classpath.
 */
package io.claimedoutbox.adapter.redis.testkit;
