package io.claimedoutbox.spring;

import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.OutboxStore;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.TypedMessages;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Appends every published event whose type carries {@link OutboxEvent}, on the publishing thread,
 * so the append joins the publisher's transaction. A failed append fails the publish (and so, in a
 * transaction, the transaction): an event is never lost quietly.
 */
final class OutboxEventBridge extends PublishedEventListener {

  private final OutboxStore store;
  private final ObjectProvider<PayloadCodec> codec;
  private final SpelExpressionParser parser = new SpelExpressionParser();
  private final ConcurrentMap<Class<?>, Optional<Route>> routes = new ConcurrentHashMap<>();

  OutboxEventBridge(OutboxStore store, ObjectProvider<PayloadCodec> codec) {
    this.store = store;
    this.codec = codec;
  }

  /** Where events of one type go. */
  private record Route(String topic, Optional<Expression> orderingKey) {}

  @Override
  protected void onPublished(Object event) {
    routes.computeIfAbsent(event.getClass(), this::routeOf).ifPresent(route -> append(event, route));
  }

  private Optional<Route> routeOf(Class<?> type) {
    OutboxEvent marked = AnnotatedElementUtils.findMergedAnnotation(type, OutboxEvent.class);
    if (marked == null) {
      return Optional.empty();
    }
    String topic = marked.topic().isEmpty() ? type.getSimpleName() : marked.topic();
    Optional<Expression> key = marked.orderingKey().isEmpty() ? Optional.empty()
        : Optional.of(parser.parseExpression(marked.orderingKey()));
    return Optional.of(new Route(topic, key));
  }

  private void append(Object event, Route route) {
    PayloadCodec payloads = codec.getIfAvailable();
    if (payloads == null) {
      throw new IllegalStateException("Claimed Outbox: " + event.getClass().getName()
          + " is an @OutboxEvent, but there is no PayloadCodec bean to write it: add outbox-jackson and"
          + " spring-boot-starter-jackson (the codec uses Boot's Jackson mapper) or declare a PayloadCodec bean");
    }
    OutboxMessage message = TypedMessages.of(route.topic(), event, payloads);
    if (route.orderingKey().isPresent()) {
      Object key = route.orderingKey().get().getValue(event);
      if (key != null) {
        message = message.withOrderingKey(key.toString());
      }
    }
    store.append(message);
  }
}
