package io.claimedoutbox.cli;

import java.util.Map;

/**
 * One backend's benchmark figures. Rates are per second, single-threaded; each rate sits next to
 * the backend's raw compare-and-set rate measured in the same run, because this machine is noisy
 * and only ratios travel.
 *
 * @param backend the backend's label
 * @param rawOpsPerSecond plain compare-and-sets per second (JDBC UPDATE, EVALSHA, findOneAndUpdate)
 * @param transitionsPerSecond {@code tryMarkClaimDelivered} calls per second on claimed entries
 * @param claimDeliverPerSecond entries per second through {@code claimDue(10)} plus one delivery each
 * @param claimLatencyByBacklog claim latency (one entry) for each backlog size
 */
record BenchmarkResult(String backend, double rawOpsPerSecond, double transitionsPerSecond,
    double claimDeliverPerSecond, Map<Integer, LatencySummary> claimLatencyByBacklog) {

  double transitionRatio() {
    return transitionsPerSecond / rawOpsPerSecond;
  }

  double claimDeliverRatio() {
    return claimDeliverPerSecond / rawOpsPerSecond;
  }
}
