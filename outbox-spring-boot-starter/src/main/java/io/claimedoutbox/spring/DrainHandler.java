package io.claimedoutbox.spring;

import io.claimedoutbox.drain.OutboxMessageHandler;
import java.util.Arrays;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;

/**
 * Which {@code OutboxMessageHandler} bean the drain runs: the one named by
 * {@code claimed-outbox.drain.handler}, else the only one, else the {@code @Primary} one. A publisher
 * that is itself a handler (the RabbitMQ and Kafka publishers are) next to the application's own
 * handler is the usual reason for two.
 */
final class DrainHandler {

  private DrainHandler() {}

  static OutboxMessageHandler choose(ListableBeanFactory beans, String name) {
    if (name != null && !name.isBlank()) {
      return beans.getBean(name, OutboxMessageHandler.class);
    }
    try {
      return beans.getBeanProvider(OutboxMessageHandler.class).getObject();
    } catch (NoUniqueBeanDefinitionException several) {
      throw new OutboxStartupException("Claimed Outbox: the drain needs one OutboxMessageHandler, found "
          + Arrays.toString(beans.getBeanNamesForType(OutboxMessageHandler.class))
          + ": mark the drain's one @Primary or name it with claimed-outbox.drain.handler", several);
    }
  }
}
