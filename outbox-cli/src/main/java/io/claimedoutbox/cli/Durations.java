package io.claimedoutbox.cli;

import java.time.Duration;
import java.util.Locale;

/** Durations as people read them: {@code 850 ms}, {@code 12.4 s}, {@code 3 min 20 s}, {@code 2 d 4 h}. */
final class Durations {

  private Durations() {}

  static String text(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1_000) {
      return millis + " ms";
    }
    if (millis < 60_000) {
      return String.format(Locale.ROOT, "%.1f s", millis / 1_000.0);
    }
    if (duration.toHours() < 1) {
      return duration.toMinutes() + " min " + duration.toSecondsPart() + " s";
    }
    if (duration.toDays() < 1) {
      return duration.toHours() + " h " + duration.toMinutesPart() + " min";
    }
    return duration.toDays() + " d " + duration.toHoursPart() + " h";
  }
}
