package io.claimedoutbox.tracing;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxMessage;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;

/** Messages that carry the trace of the work that appends them. */
public final class TracedMessages {

  private TracedMessages() {}

  /**
   * The message with the current span's context in its {@value TraceParent#HEADER} header, so the
   * delivery continues the trace of the request that appended it; unchanged when no span is current.
   *
   * @param message the message to append
   * @param tracer the application's tracer
   * @return the message, traced
   */
  public static OutboxMessage withCurrentTrace(OutboxMessage message, Tracer tracer) {
    Arguments.requireNonNull(message, "message");
    Arguments.requireNonNull(tracer, "tracer");
    Span current = tracer.currentSpan();
    return current == null ? message : message.withHeader(TraceParent.HEADER, TraceParent.of(current.context()));
  }
}
