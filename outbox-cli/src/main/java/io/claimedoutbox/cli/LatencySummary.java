package io.claimedoutbox.cli;

import java.util.List;

/** Percentiles of a set of durations, in milliseconds. */
record LatencySummary(int samples, double p50, double p95, double p99, double max) {

  static LatencySummary ofNanos(List<Long> nanos) {
    if (nanos.isEmpty()) {
      return new LatencySummary(0, 0, 0, 0, 0);
    }
    long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
    return new LatencySummary(sorted.length, millis(sorted, 0.50), millis(sorted, 0.95), millis(sorted, 0.99),
        sorted[sorted.length - 1] / 1e6);
  }

  private static double millis(long[] sorted, double quantile) {
    int index = (int) Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1e6;
  }
}
