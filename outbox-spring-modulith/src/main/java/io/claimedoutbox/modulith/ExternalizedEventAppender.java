package io.claimedoutbox.modulith;

import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.OutboxStore;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.TypedMessages;
import io.claimedoutbox.spring.PublishedEventListener;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.expression.Expression;
import org.springframework.expression.common.TemplateParserContext;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.RoutingTarget;

/**
 * Appends each event the externalization configuration selects, on the publishing thread, so it
 * joins the publisher's transaction: delivered when that transaction commits, gone when it rolls
 * back. The routing target's target is the outbox topic and its key the ordering key (either may be
 * a {@code #{…}} expression over the event, as with Modulith's own transports); the payload is the
 * configuration's mapping of the event, written by the application's {@link PayloadCodec}; the
 * configuration's headers become the entry's. A failed append fails the publish.
 */
final class ExternalizedEventAppender extends PublishedEventListener {

  private final OutboxStore store;
  private final PayloadCodec codec;
  private final EventExternalizationConfiguration configuration;
  private final SpelExpressionParser parser = new SpelExpressionParser();
  private final TemplateParserContext template = new TemplateParserContext();
  // parsed once per routing expression, not once per event
  private final ConcurrentMap<String, Expression> expressions = new ConcurrentHashMap<>();

  ExternalizedEventAppender(OutboxStore store, PayloadCodec codec, EventExternalizationConfiguration configuration) {
    this.store = store;
    this.codec = codec;
    this.configuration = configuration;
  }

  @Override
  protected void onPublished(Object event) {
    if (configuration.supports(event)) {
      store.append(message(event));
    }
  }

  private OutboxMessage message(Object event) {
    RoutingTarget target = configuration.determineTarget(event);
    String topic = target.hasExpression() ? evaluate(target.getTarget(), event) : target.getTarget();
    OutboxMessage message = TypedMessages.of(topic, configuration.map(event), codec);
    String key = target.getKey();
    if (key != null && !key.isEmpty()) {
      message = message.withOrderingKey(target.hasKeyExpression() ? evaluate(key, event) : key);
    }
    for (Map.Entry<String, Object> header : configuration.getHeadersFor(event).entrySet()) {
      message = message.withHeader(header.getKey(), String.valueOf(header.getValue()));
    }
    return message;
  }

  private String evaluate(String expression, Object event) {
    return String.valueOf(expressions.computeIfAbsent(expression, text -> parser.parseExpression(text, template))
        .getValue(event));
  }
}
