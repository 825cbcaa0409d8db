/**
 * <b>internal.</b> The fault soak: drains under killed connections and a killed server, counting losses.
 */
package io.claimedoutbox.benchmarks.soak;
