package io.claimedoutbox.cli;

/**
 * The cheapest compare-and-set a backend offers, without the library around it: a version-checked
 * JDBC {@code UPDATE}, an {@code EVALSHA} of a trivial script, a plain {@code findOneAndUpdate}.
 * Benchmarks divide the library's rate by this one, measured in the same run.
 */
interface RawCompareAndSet extends AutoCloseable {

  /**
   * Sets key {@code key} from {@code expected} to {@code expected + 1}, if it still holds
   * {@code expected}.
   *
   * @return whether the compare-and-set matched
   */
  boolean compareAndSet(int key, long expected);

  @Override
  void close();
}
