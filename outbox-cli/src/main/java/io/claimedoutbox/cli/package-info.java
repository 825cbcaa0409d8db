/**
 * <b>internal.</b> The {@code outbox} program (race lab, backend comparison, live conformance, benchmarks). A
 * runnable jar, not a library: nothing here is API.
 */
package io.claimedoutbox.cli;
