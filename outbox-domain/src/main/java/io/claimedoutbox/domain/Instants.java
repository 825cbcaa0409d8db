package io.claimedoutbox.domain;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Stored instants are truncated to milliseconds: the finest precision every supported backend
 * keeps, so an entry read back equals the entry written. They lie within a horizon every backend
 * can store ({@link #EARLIEST} to {@link #LATEST}, MariaDB's {@code DATETIME} range), and leases
 * are at most {@link #MAX_LEASE}, so no time a store computes can overflow.
 */
public final class Instants {

  /** The earliest instant a caller may ask a store to keep. */
  public static final Instant EARLIEST = Instant.parse("1000-01-01T00:00:00Z");
  /** The latest instant a caller may ask a store to keep. */
  public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");
  /** The longest lease a claim or a renewal may ask for. */
  public static final Duration MAX_LEASE = Duration.ofDays(365);

  private Instants() {}

  /**
   * The instant as a store keeps it.
   *
   * @param instant any instant, may be {@code null}
   * @return the instant truncated to milliseconds, or {@code null} when given {@code null}
   */
  public static Instant stored(Instant instant) {
    return instant == null ? null : instant.truncatedTo(ChronoUnit.MILLIS);
  }

  /**
   * Returns {@code instant} or throws an {@link IllegalArgumentException} naming the argument when
   * it lies outside {@link #EARLIEST} … {@link #LATEST}.
   *
   * @param instant the argument, not {@code null}
   * @param name the argument's name
   * @return {@code instant}
   */
  public static Instant requireStorable(Instant instant, String name) {
    Arguments.requireNonNull(instant, name);
    if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
      throw new IllegalArgumentException(name + " must lie between " + EARLIEST + " and " + LATEST + ", was " + instant);
    }
    return instant;
  }
}
