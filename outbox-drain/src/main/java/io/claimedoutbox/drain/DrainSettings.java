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
    long maxHeldPayloadBytes,
    Duration claimAhead,
    int resultBatchSize,
    Duration lease,
    Duration minIdle,
    Duration maxIdle,
    Duration wakeUpGap,
    Duration renewalInterval,
    Duration renewWhenRemaining,
    Duration shutdownTimeout,
    RetryPolicy retryPolicy,
    Predicate<Throwable> permanent,
    Clock clock) {
}
