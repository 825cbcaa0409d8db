package io.claimedoutbox.domain;

import java.util.UUID;

/**
 * A random stamp minted for one write attempt and stored with the entry when the write lands.
 *
 * <p>When a commit acknowledgement is lost, re-reading the entry and comparing its stamp with the
 * attempt's own stamp tells whether that attempt landed.
 *
 * @param value the stamp
 */
public record WriteStamp(UUID value) {

  /**
   * Validates the stamp.
   *
   * @throws NullPointerException if {@code value} is null
   */
  public WriteStamp {
    Arguments.requireNonNull(value, "writeStamp");
  }

  /**
   * A new random stamp.
   *
   * @return a fresh stamp
   */
  public static WriteStamp fresh() {
    return new WriteStamp(UUID.randomUUID());
  }

  /**
   * Parses the text form written by {@link #toString()}.
   *
   * @param text the stamp's text
   * @return the stamp
   * @throws IllegalArgumentException if the text is not a UUID
   */
  public static WriteStamp parse(String text) {
    return new WriteStamp(UUID.fromString(Arguments.requireNonNull(text, "writeStamp")));
  }

  @Override
  public String toString() {
    return value.toString();
  }
}
