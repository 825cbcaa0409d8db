package io.claimedoutbox.domain;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The identity of one outbox entry: a short string of letters, digits and {@code . _ : -}.
 *
 * <p>Generated ids are UUID version 7 strings: they sort by creation time to the millisecond, so
 * entries that fall due at the same instant are claimed roughly in the order they were appended.
 *
 * @param value the id as stored; never blank, at most {@value #MAX_LENGTH} characters
 */
public record EntryId(String value) implements Comparable<EntryId> {

  /** The longest accepted id. */
  public static final int MAX_LENGTH = 64;

  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * Validates the id.
   *
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is blank, too long or has other characters
   */
  public EntryId {
    Arguments.requireText(value, "entryId", MAX_LENGTH);
    if (!isSafe(value)) {
      throw new IllegalArgumentException(
          "entryId may contain only letters, digits and . _ : - but was '" + value + "'");
    }
  }

  // A loop, not a regular expression: every id a store reads is checked here, thousands per claim.
  private static boolean isSafe(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
          || c == ':' || c == '-';
      if (!safe) {
        return false;
      }
    }
    return true;
  }

  /**
   * Wraps an existing id.
   *
   * @param value the id
   * @return the id
   */
  public static EntryId of(String value) {
    return new EntryId(value);
  }

  /**
   * A new, time-ordered, practically unique id (UUID version 7). Ids generated in this JVM sort in
   * the order they were generated, also within one millisecond (a counter in the 12 bits after the
   * time), so entries appended in one batch keep the batch's order.
   *
   * @return a fresh id
   */
  public static EntryId generate() {
    long stamp = nextStamp();
    long randomLow = RANDOM.nextLong();
    long mostSignificant = ((stamp >>> 12) << 16) | 0x7000L | (stamp & 0x0FFFL);
    long leastSignificant = (randomLow & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new EntryId(new UUID(mostSignificant, leastSignificant).toString());
  }

  /** Milliseconds since the epoch, shifted left 12 bits, plus a counter; strictly increasing. */
  private static final AtomicLong LAST_STAMP = new AtomicLong();

  private static long nextStamp() {
    long now = System.currentTimeMillis() << 12;
    return LAST_STAMP.updateAndGet(last -> Math.max(now, last + 1));
  }

  @Override
  public int compareTo(EntryId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
