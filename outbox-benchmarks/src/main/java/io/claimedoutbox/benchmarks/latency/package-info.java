/**
 * <b>internal.</b> The commit-to-handler latency and business-rate benchmarks beside the peers.
 */
package io.claimedoutbox.benchmarks.latency;
