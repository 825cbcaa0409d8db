package io.claimedoutbox.sample;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.rabbitmq.RabbitMqPublisher;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** Places orders; their events reach RabbitMQ through the outbox. */
@SpringBootApplication
public class OrdersApplication {

  /** @param args the command line */
  public static void main(String[] args) {
    SpringApplication.run(OrdersApplication.class, args);
  }

  @Bean
  ConnectionFactory rabbitConnections(@Value("${orders.rabbitmq.host}") String host,
      @Value("${orders.rabbitmq.port}") int port, @Value("${orders.rabbitmq.exchange}") String exchange,
      @Value("${orders.rabbitmq.queue:}") String queue) throws Exception {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(host);
    factory.setPort(port);
    try (Connection connection = factory.newConnection("orders-service-setup"); Channel channel = connection.createChannel()) {
      channel.exchangeDeclare(exchange, "topic", true);
      // A consumer would own its queue; the sample declares one so that a lone run has somewhere to
      // deliver (a message no queue takes is retried, never dropped: the publisher is mandatory).
      if (!queue.isBlank()) {
        channel.queueDeclare(queue, true, false, false, null);
        channel.queueBind(queue, exchange, "orders.#");
      }
    }
    return factory;
  }

  @Bean(destroyMethod = "close")
  RabbitMqPublisher rabbitPublisher(ConnectionFactory connections, @Value("${orders.rabbitmq.exchange}") String exchange) {
    return RabbitMqPublisher.builder(connections).exchange(exchange).build();
  }

  /**
   * The drain's handler: publish, and note which trace the delivery ran in. {@code @Primary}: the
   * publisher is a handler too, and the drain must run this one.
   */
  @Bean
  @Primary
  OutboxMessageHandler orderEventsHandler(RabbitMqPublisher publisher, Tracer tracer, DeliveryLog deliveries) {
    return message -> {
      // Noted before the publish: once the broker has the message, a reader may already look.
      deliveries.publishing(message.entry().id().value(), tracer.currentSpan() == null ? ""
          : tracer.currentSpan().context().traceId());
      publisher.handle(message);
    };
  }
}
