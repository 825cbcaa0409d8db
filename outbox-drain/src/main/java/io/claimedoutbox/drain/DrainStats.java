package io.claimedoutbox.drain;

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
 */
public record DrainStats(
    long claimed,
    long handlerSucceeded,
    long handlerFailed,
    long claimsLost,
    long leftToLeaseExpiry,
    long releasedUnhandled,
    long resultsSettledLater,
    int inFlight) {}
