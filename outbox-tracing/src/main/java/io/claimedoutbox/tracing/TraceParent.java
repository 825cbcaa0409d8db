package io.claimedoutbox.tracing;

import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The W3C Trace Context {@code traceparent} form of a trace context
 * ({@code 00-<32 hex trace id>-<16 hex span id>-<flags>}), written and read with nothing but the
 * Micrometer Tracing API, so it works behind OpenTelemetry, Brave or any other bridge. A 64-bit
 * trace id is written left-padded to 128 bits, as the specification asks.
 */
public final class TraceParent {

  /** The header the outbox stores it in. */
  public static final String HEADER = "traceparent";

  private static final Pattern FORM = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
  private static final String ZERO_TRACE = "0".repeat(32);
  private static final String ZERO_SPAN = "0".repeat(16);

  private TraceParent() {}

  /**
   * @param context a trace context
   * @return its {@code traceparent} value
   */
  public static String of(TraceContext context) {
    String traceId = context.traceId().toLowerCase(Locale.ROOT);
    String padded = "0".repeat(Math.max(0, 32 - traceId.length())) + traceId;
    boolean sampled = Boolean.TRUE.equals(context.sampled());
    return "00-" + padded + "-" + context.spanId().toLowerCase(Locale.ROOT) + (sampled ? "-01" : "-00");
  }

  /**
   * Reads a {@code traceparent} value. A missing, malformed or all-zero value is empty: the
   * delivery then starts a trace of its own instead of failing.
   *
   * @param value the header's value, may be {@code null}
   * @param tracer builds the context
   * @return the remote parent, if the value is a valid one
   */
  public static Optional<TraceContext> parse(String value, Tracer tracer) {
    if (value == null) {
      return Optional.empty();
    }
    Matcher parts = FORM.matcher(value.trim().toLowerCase(Locale.ROOT));
    if (!parts.matches() || parts.group(1).equals(ZERO_TRACE) || parts.group(2).equals(ZERO_SPAN)) {
      return Optional.empty();
    }
    boolean sampled = (Integer.parseInt(parts.group(3), 16) & 1) == 1;
    return Optional.of(tracer.traceContextBuilder()
        .traceId(parts.group(1))
        .spanId(parts.group(2))
        .sampled(sampled)
        .build());
  }
}
