package io.claimedoutbox.spring;

import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.drain.OutboxMessageHandler;
import java.util.function.UnaryOperator;

/**
 * What tracing adds when the application has a Micrometer {@code Tracer}: the current trace stored
 * on each appended message, the handler run in a child span of it.
 *
 * @param onAppend adds the current trace to a message
 * @param aroundHandler runs a handler in a span continuing the entry's trace
 */
public record OutboxTracing(UnaryOperator<OutboxMessage> onAppend, UnaryOperator<OutboxMessageHandler> aroundHandler) {

  /** No tracer: messages and handlers as they are. */
  public static final OutboxTracing NONE = new OutboxTracing(UnaryOperator.identity(), UnaryOperator.identity());
}
