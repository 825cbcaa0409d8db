package io.claimedoutbox.benchmarks;

/**
 * One system that drains an outbox: it is seeded with a backlog, drains it with a number of
 * workers, and says how many entries it left undone.
 */
interface Contender extends AutoCloseable {

  /** @return the name in the report, for example {@code db-scheduler 16.12.0} */
  String name();

  /** @return the backend in the report, for example {@code PostgreSQL} */
  String backend();

  /**
   * Called before each {@link #seed} with the coming drain's worker count, for a system whose
   * worker threads are fixed when it starts; the default does nothing.
   */
  default void prepare(int workers) throws Exception {}

  /** Empties the store and appends {@code entries} due entries, each carrying its number as id. */
  void seed(int entries) throws Exception;

  /**
   * Drains the backlog with {@code workers} worker threads, calling {@code handled} once per
   * delivery, and returns once every entry was handled and the drain has stopped (results written).
   */
  void drain(int workers, Handled handled) throws Exception;

  /** @return how many seeded entries are not finished in the store after the drain */
  long undone() throws Exception;

  @Override
  void close() throws Exception;
}
