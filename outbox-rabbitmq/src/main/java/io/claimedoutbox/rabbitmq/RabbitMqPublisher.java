package io.claimedoutbox.rabbitmq;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.drain.ClaimedMessage;
import io.claimedoutbox.drain.OutboxMessageHandler;
import java.io.IOException;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * A drain handler that publishes each claimed entry to RabbitMQ and returns only once the broker
 * confirmed it (publisher confirms), so the drain marks an entry delivered only when the broker
 * has it. Publishing is {@code mandatory}: a message no queue takes is a failure, retried later,
 * never a silent drop. Messages are persistent, carry the entry's headers, its id as
 * {@code message-id}, and {@value #TOKEN_GENERATION} — the claim's generation, so a consumer can
 * fence out a late, superseded delivery — plus {@value #ORDERING_KEY} when the entry has one.
 *
 * <p>Delivery is at least once: a confirm lost with a broken connection makes the drain publish
 * again. The publisher opens its own connection from the caller's {@link ConnectionFactory}
 * (addresses, credentials, TLS are set there), lazily, and opens a new one after a broken one;
 * {@link #close()} closes it. Thread-safe: each handler thread borrows a channel of its own.
 */
public final class RabbitMqPublisher implements OutboxMessageHandler, AutoCloseable {

  /** The header with the claim's token generation. */
  public static final String TOKEN_GENERATION = "x-outbox-token-generation";
  /** The header with the entry's ordering key, when it has one. */
  public static final String ORDERING_KEY = "x-outbox-ordering-key";

  /** Where one entry goes. */
  public record Route(String exchange, String routingKey) {}

  private final ConnectionFactory factory;
  private final Function<OutboxEntry, Route> router;
  private final long confirmTimeoutMillis;
  private final BlockingQueue<ConfirmingChannel> idle = new LinkedBlockingQueue<>();
  private Connection connection;

  private RabbitMqPublisher(Builder builder) {
    this.factory = builder.factory;
    this.router = builder.router;
    this.confirmTimeoutMillis = builder.confirmTimeout.toMillis();
  }

  /**
   * @param factory a configured connection factory; the publisher opens its connection from it
   * @return a builder; an exchange or a router must be set
   */
  public static Builder builder(ConnectionFactory factory) {
    return new Builder(Arguments.requireNonNull(factory, "factory"));
  }

  @Override
  public void handle(ClaimedMessage message) throws IOException, InterruptedException, TimeoutException {
    OutboxEntry entry = message.entry();
    Route route = router.apply(entry);
    ConfirmingChannel channel = borrow();
    boolean healthy = false;
    try {
      channel.publish(route, properties(entry, message.tokenGeneration()), entry.message().payload(),
          confirmTimeoutMillis);
      healthy = true;
    } finally {
      giveBack(channel, healthy);
    }
  }

  private static AMQP.BasicProperties properties(OutboxEntry entry, long generation) {
    Map<String, Object> headers = new LinkedHashMap<>(entry.message().headers());
    headers.put(TOKEN_GENERATION, generation);
    entry.message().orderingKey().ifPresent(key -> headers.put(ORDERING_KEY, key));
    return new AMQP.BasicProperties.Builder()
        .messageId(entry.id().value())
        .contentType(entry.message().headers().get("content-type"))
        .deliveryMode(2)
        .timestamp(Date.from(entry.createdAt()))
        .headers(headers)
        .build();
  }

  private ConfirmingChannel borrow() throws IOException, TimeoutException {
    ConfirmingChannel channel;
    while ((channel = idle.poll()) != null) {
      if (channel.isOpen()) {
        return channel;
      }
    }
    return ConfirmingChannel.open(connection());
  }

  private void giveBack(ConfirmingChannel channel, boolean healthy) {
    if (healthy && channel.isOpen()) {
      idle.add(channel);
    } else {
      channel.closeQuietly();
    }
  }

  private synchronized Connection connection() throws IOException, TimeoutException {
    if (connection == null || !connection.isOpen()) {
      idle.clear();
      connection = factory.newConnection("claimed-outbox-publisher");
    }
    return connection;
  }

  /** Closes the publisher's connection. */
  @Override
  public synchronized void close() throws IOException {
    idle.clear();
    if (connection != null && connection.isOpen()) {
      connection.close();
    }
  }

  /** Builds a {@link RabbitMqPublisher}. Not thread-safe. */
  public static final class Builder {
    private final ConnectionFactory factory;
    private Function<OutboxEntry, Route> router;
    private Duration confirmTimeout = Duration.ofSeconds(10);

    private Builder(ConnectionFactory factory) {
      this.factory = factory;
    }

    /**
     * Publishes every entry to {@code exchange}, with the entry's topic as routing key.
     *
     * @param exchange the exchange's name
     * @return this builder
     */
    public Builder exchange(String exchange) {
      Arguments.requireNonNull(exchange, "exchange");
      this.router = entry -> new Route(exchange, entry.message().topic());
      return this;
    }

    /**
     * Publishes each entry where {@code value} says, for mappings beyond "topic is the routing key".
     *
     * @param value the route of an entry
     * @return this builder
     */
    public Builder router(Function<OutboxEntry, Route> value) {
      this.router = Arguments.requireNonNull(value, "router");
      return this;
    }

    /**
     * @param value how long to wait for the broker's confirm before the attempt counts as failed
     *     (default 10 s)
     * @return this builder
     */
    public Builder confirmTimeout(Duration value) {
      this.confirmTimeout = Arguments.requirePositive(value, "confirmTimeout");
      return this;
    }

    /**
     * @return the publisher; it connects on the first message
     * @throws IllegalStateException when neither an exchange nor a router was set
     */
    public RabbitMqPublisher build() {
      if (router == null) {
        throw new IllegalStateException("set exchange(name) or router(entry -> route) before build()");
      }
      return new RabbitMqPublisher(this);
    }
  }
}
