package io.claimedoutbox.drain;

import io.claimedoutbox.domain.WorkerId;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;

/** The settings every part of a drain reads, resolved by {@link OutboxDrain.Builder}. */
record DrainSettings(
    WorkerId worker,
    int batchSize,
    int concurrency,
    int bufferSize,
    int resultBatchSize,
    Duration lease,
    Duration minIdle,
    Duration maxIdle,
    Duration renewalInterval,
    Duration renewWhenRemaining,
    Duration shutdownTimeout,
    RetryPolicy retryPolicy,
    Predicate<Throwable> permanent,
    Clock clock) {

  /** @return how many claims the drain holds at most: running plus waiting for a handler */
  int capacity() {
    return concurrency + bufferSize;
  }
}
