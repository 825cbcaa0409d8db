package io.claimedoutbox.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

/**
 * One channel in confirm mode that remembers which messages the broker returned as unroutable: a
 * mandatory message no queue takes is returned before it is confirmed, so after the confirm the
 * publisher knows whether it landed in a queue.
 */
final class ConfirmingChannel {

  private final Channel channel;
  private final Set<String> returned = ConcurrentHashMap.newKeySet();

  private ConfirmingChannel(Channel channel) {
    this.channel = channel;
  }

  static ConfirmingChannel open(Connection connection) throws IOException {
    Channel channel = connection.createChannel();
    channel.confirmSelect();
    ConfirmingChannel confirming = new ConfirmingChannel(channel);
    channel.addReturnListener(message -> confirming.returned.add(String.valueOf(message.getProperties().getMessageId())));
    return confirming;
  }

  /**
   * Publishes and waits for the broker's confirm.
   *
   * @throws IOException when the broker refused the message (a nack), no queue took it, or the
   *     connection broke
   * @throws TimeoutException when no confirm came in time
   */
  void publish(RabbitMqPublisher.Route route, AMQP.BasicProperties properties, byte[] body, long confirmTimeoutMillis)
      throws IOException, InterruptedException, TimeoutException {
    channel.basicPublish(route.exchange(), route.routingKey(), true, properties, body);
    channel.waitForConfirmsOrDie(confirmTimeoutMillis);
    if (returned.remove(properties.getMessageId())) {
      throw new IOException("no queue is bound for exchange '" + route.exchange() + "' and routing key '"
          + route.routingKey() + "': message " + properties.getMessageId() + " was returned; it is retried later");
    }
  }

  boolean isOpen() {
    return channel.isOpen();
  }

  void closeQuietly() {
    try {
      if (channel.isOpen()) {
        channel.close();
      }
    } catch (IOException | TimeoutException | RuntimeException alreadyBroken) {
      // A broken channel is what is being thrown away.
    }
  }
}
