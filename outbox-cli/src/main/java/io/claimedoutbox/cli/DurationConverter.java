package io.claimedoutbox.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as people write them: {@code 500ms}, {@code 2s}, {@code 5m}, or ISO-8601 {@code PT2S}. */
final class DurationConverter implements ITypeConverter<Duration> {

  private static final Pattern SHORT = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d)");

  @Override
  public Duration convert(String value) {
    Matcher matcher = SHORT.matcher(value.strip());
    if (matcher.matches()) {
      long amount = Long.parseLong(matcher.group(1));
      return switch (matcher.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        case "h" -> Duration.ofHours(amount);
        default -> Duration.ofDays(amount);
      };
    }
    try {
      return Duration.parse(value);
    } catch (RuntimeException malformed) {
      throw new TypeConversionException("'" + value + "' is not a duration; write for example 500ms, 2s, 5m, 12h, 7d");
    }
  }
}
