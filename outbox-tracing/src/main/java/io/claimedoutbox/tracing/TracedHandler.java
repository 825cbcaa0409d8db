package io.claimedoutbox.tracing;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.drain.ClaimedMessage;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import java.util.Optional;

/**
 * Runs a drain handler inside a span that continues the trace stored with the entry: the delivery
 * becomes a child of the request that appended it, and whatever the handler does (a broker publish
 * with its own instrumentation) joins that trace. An entry without a valid {@value TraceParent#HEADER}
 * starts a new trace. The span is named {@code outbox deliver}, tagged with the topic, the entry id
 * and the attempt, and marked with the handler's error when it throws.
 */
public final class TracedHandler implements OutboxMessageHandler {

  private final OutboxMessageHandler handler;
  private final Tracer tracer;

  private TracedHandler(OutboxMessageHandler handler, Tracer tracer) {
    this.handler = handler;
    this.tracer = tracer;
  }

  /**
   * @param handler the handler to trace
   * @param tracer the application's tracer
   * @return the traced handler, to give the drain
   */
  public static TracedHandler of(OutboxMessageHandler handler, Tracer tracer) {
    return new TracedHandler(Arguments.requireNonNull(handler, "handler"), Arguments.requireNonNull(tracer, "tracer"));
  }

  @Override
  public void handle(ClaimedMessage message) throws Exception {
    OutboxEntry entry = message.entry();
    Span.Builder builder = tracer.spanBuilder().name("outbox deliver").kind(Span.Kind.CONSUMER)
        .tag("outbox.topic", entry.message().topic())
        .tag("outbox.entry_id", entry.id().value())
        .tag("outbox.attempt", Integer.toString(message.attempt()));
    Optional<TraceContext> parent =
        TraceParent.parse(entry.message().headers().get(TraceParent.HEADER), tracer);
    Span span = (parent.isPresent() ? builder.setParent(parent.get()) : builder.setNoParent()).start();
    try (Tracer.SpanInScope scope = tracer.withSpan(span)) {
      handler.handle(message);
    } catch (Exception | Error failure) {
      span.error(failure);
      throw failure;
    } finally {
      span.end();
    }
  }
}
