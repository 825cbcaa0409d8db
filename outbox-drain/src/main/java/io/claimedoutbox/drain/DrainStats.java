package io.claimedoutbox.drain;

import java.util.Optional;

/**
 * What one drain has done so far, from its own point of view. These count handler results, not
 * store writes: whether a write was this drain's is what the observation counter ({@code outbox-micrometer}) says.
 *
 * @param claimed claims handed to handlers
 * @param handlerSucceeded handler calls that returned normally
 * @param handlerFailed handler calls that threw
 * @param claimsLost claims given up because a lease renewal was not applied
 * @param leftToLeaseExpiry claims abandoned at a forced shutdown, left for another worker
 * @param releasedUnhandled claims no handler had started when the drain stopped, released (due at
 *     once) for another worker
 * @param resultsSettledLater results whose first write failed (a lost answer, a broken connection)
 *     and that were settled afterwards by reading the entry again or writing once more, instead of
 *     being delivered again
 * @param inFlight claims held right now: being handled, waiting for a handler, or being recorded
 * @param heldPayloadBytes the payload bytes of the claims held right now (bounded by
 *     {@link OutboxDrain.Builder#maxHeldPayloadBytes})
 * @param claimFailures claim calls that failed (each followed by a back-off and another claim)
 * @param claimFailuresInARow claim calls that failed since the last one that worked: above zero,
 *     the drain is not claiming right now
 * @param renewalFailures lease renewal rounds that failed
 * @param errors {@link Error}s (out of memory, a handler's assertion) the drain caught and survived
 * @param lastFailure the last failure of any part: which part, when, what; empty when none
 */
public record DrainStats(
    long claimed,
    long handlerSucceeded,
    long handlerFailed,
    long claimsLost,
    long leftToLeaseExpiry,
    long releasedUnhandled,
    long resultsSettledLater,
    int inFlight,
    long heldPayloadBytes,
    long claimFailures,
    int claimFailuresInARow,
    long renewalFailures,
    long errors,
    Optional<String> lastFailure) {}
