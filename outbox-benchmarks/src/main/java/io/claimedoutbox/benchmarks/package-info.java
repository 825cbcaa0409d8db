/**
 * <b>internal.</b> The drain, retention and large-payload benchmarks beside the peers and the raw floor. A runnable
 * jar, not a library.
 */
package io.claimedoutbox.benchmarks;
