package io.claimedoutbox.conformance;

/**
 * The cheapest compare-and-set a backend offers, without the library around it: a version-checked
 * JDBC {@code UPDATE}, an {@code EVALSHA} of a trivial script, a plain {@code findOneAndUpdate}.
 * Adapter test kits provide one so benchmarks can divide the library's rate by this floor, measured
 * in the same run.
 */
public interface RawCompareAndSet extends AutoCloseable {

  /**
   * Sets key {@code key} from {@code expected} to {@code expected + 1}, if it still holds
   * {@code expected}.
   *
   * @param key a key below the count the compare-and-set was prepared with
   * @param expected the value the caller last saw
   * @return whether the compare-and-set matched
   */
  boolean compareAndSet(int key, long expected);

  /** Removes what the compare-and-set prepared. */
  @Override
  void close();
}
