package io.claimedoutbox.cli;

import java.time.Duration;

/**
 * The race workload: {@code workers} drains, each with {@code handlersPerWorker} handlers, drain
 * {@code entries} messages; a {@code slowFraction} of handler calls take longer than the lease, so
 * their leases expire mid-work and other workers take the entries over.
 */
record RaceSettings(int workers, int handlersPerWorker, int entries, Duration lease, double slowFraction,
    double failureFraction, Duration timeout) {

  RaceSettings {
    if (workers < 1 || handlersPerWorker < 1 || entries < 1) {
      throw new UsageException("--workers, --handlers and --entries must be positive");
    }
    if (lease.toMillis() < 50) {
      throw new UsageException("--lease must be at least 50 ms, was " + lease.toMillis() + " ms");
    }
    if (slowFraction < 0 || slowFraction > 1 || failureFraction < 0 || failureFraction > 1) {
      throw new UsageException("--slow and --failures are fractions between 0 and 1");
    }
  }
}
