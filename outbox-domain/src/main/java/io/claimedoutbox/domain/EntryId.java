package io.claimedoutbox.domain;

import java.security.SecureRandom;
import java.util.UUID;
import java.util.regex.Pattern;

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

  private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9._:-]+");
  private static final SecureRandom RANDOM = new SecureRandom();

  /**
   * Validates the id.
   *
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is blank, too long or has other characters
   */
  public EntryId {
    Arguments.requireText(value, "entryId", MAX_LENGTH);
    if (!SAFE.matcher(value).matches()) {
      throw new IllegalArgumentException(
          "entryId may contain only letters, digits and . _ : - but was '" + value + "'");
    }
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
   * A new, time-ordered, practically unique id.
   *
   * @return a fresh id
   */
  public static EntryId generate() {
    long millis = System.currentTimeMillis();
    long randomHigh = RANDOM.nextLong();
    long randomLow = RANDOM.nextLong();
    long mostSignificant = (millis << 16) | 0x7000L | (randomHigh & 0x0FFFL);
    long leastSignificant = (randomLow & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new EntryId(new UUID(mostSignificant, leastSignificant).toString());
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
