package io.claimedoutbox.benchmarks;

/**
 * One drain of one backlog by one contender.
 *
 * @param system the contender
 * @param backend where it ran
 * @param entries the backlog size
 * @param workers the worker threads
 * @param round which round of the run
 * @param entriesPerSecond distinct entries handled per second, from drain start to drain stopped
 * @param duplicates handler calls for an entry already handled
 * @param undone entries not finished in the store after the drain stopped
 * @param storeCalls for our drain, the store calls it made (how many, how big, how busy); else empty
 */
record Measurement(String system, String backend, int entries, int workers, int round,
    double entriesPerSecond, long duplicates, long undone, String storeCalls) {

  String key() {
    return system + " on " + backend;
  }
}
