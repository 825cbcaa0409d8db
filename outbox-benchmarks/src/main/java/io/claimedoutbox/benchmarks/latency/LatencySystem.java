package io.claimedoutbox.benchmarks.latency;

/**
 * One relay measured for commit-to-handler latency: it is started with a {@link Recording} its
 * handler reports to, business transactions with one outbox entry each are committed through it
 * at a steady rate, and it is stopped.
 */
interface LatencySystem extends AutoCloseable {

  /** @return the name in the report, for example {@code transaction-outbox 4.2.268} */
  String name();

  /**
   * @return the longest a committed entry may wait for this relay's next poll with nothing waking it
   *     (its configured interval, or ours: the idle back-off's maximum); a relay keeps up with a
   *     rate when its last entry is handled within this (plus a second) of the last commit
   */
  java.time.Duration pollInterval();

  /** Starts the relay; its handler calls {@code recording.handlerStarted(sequence)} first thing. */
  void start(Recording recording) throws Exception;

  /**
   * Commits one business transaction (an {@code INSERT} into the business table where the backend
   * has transactions) with the entry carrying {@code sequence}, on the calling thread; returns once
   * the commit returned.
   */
  void produce(long sequence) throws Exception;

  /**
   * Stops the relay and waits for it, leaving it nothing to do: entries it had not handled (a row
   * it fell behind in) are dropped, so that no leftover work of one system runs on the two cores
   * during the next system's row.
   */
  void stop() throws Exception;

  @Override
  default void close() throws Exception {
    stop();
  }
}
