package io.claimedoutbox.domain;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Stored instants are truncated to milliseconds: the finest precision every supported backend
 * keeps, so an entry read back equals the entry written.
 */
public final class Instants {

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
}
