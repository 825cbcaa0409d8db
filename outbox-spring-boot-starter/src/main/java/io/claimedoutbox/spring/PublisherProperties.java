package io.claimedoutbox.spring;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The publishers the starter builds from properties alone, under {@code claimed-outbox.publisher}:
 * RabbitMQ when {@code rabbitmq.exchange} is set and {@code amqp-client} with {@code outbox-rabbitmq}
 * is on the class path; Kafka when {@code kafka.enabled} is {@code true} and {@code kafka-clients}
 * with {@code outbox-kafka} is. Either becomes the drain's handler unless the application names
 * another ({@code claimed-outbox.drain.handler}).
 */
@ConfigurationProperties("claimed-outbox.publisher")
public class PublisherProperties {

  private final Rabbitmq rabbitmq = new Rabbitmq();
  private final Kafka kafka = new Kafka();

  /** @return the RabbitMQ publisher's settings */
  public Rabbitmq getRabbitmq() {
    return rabbitmq;
  }

  /** @return the Kafka publisher's settings */
  public Kafka getKafka() {
    return kafka;
  }

  /** Where an outbox topic goes on RabbitMQ. */
  public static class Route {
    private String exchange;
    private String routingKey;

    /** @return the exchange; unset: the publisher's {@code exchange} */
    public String getExchange() {
      return exchange;
    }

    /** @param exchange the exchange */
    public void setExchange(String exchange) {
      this.exchange = exchange;
    }

    /** @return the routing key; unset: the outbox topic */
    public String getRoutingKey() {
      return routingKey;
    }

    /** @param routingKey the routing key */
    public void setRoutingKey(String routingKey) {
      this.routingKey = routingKey;
    }
  }

  /**
   * The RabbitMQ publisher: every entry to {@code exchange} with its topic as routing key, except the
   * topics {@code routes} names; each publish waits for the broker's confirm. The connection is the
   * application's {@code com.rabbitmq.client.ConnectionFactory} bean if it has one, else one made
   * from {@code spring.rabbitmq.host}, {@code port}, {@code username}, {@code password} and
   * {@code virtual-host} (RabbitMQ's defaults where unset).
   */
  public static class Rabbitmq {
    private String exchange;
    private Map<String, Route> routes = new LinkedHashMap<>();
    private Duration confirmTimeout = Duration.ofSeconds(10);

    /** @return the exchange every topic without a route goes to; setting it turns the publisher on */
    public String getExchange() {
      return exchange;
    }

    /** @param exchange the exchange every topic without a route goes to */
    public void setExchange(String exchange) {
      this.exchange = exchange;
    }

    /** @return per outbox topic, where it goes instead */
    public Map<String, Route> getRoutes() {
      return routes;
    }

    /** @param routes per outbox topic, where it goes instead */
    public void setRoutes(Map<String, Route> routes) {
      this.routes = routes;
    }

    /** @return how long a publish waits for the broker's confirm before the attempt counts as failed */
    public Duration getConfirmTimeout() {
      return confirmTimeout;
    }

    /** @param confirmTimeout how long a publish waits for the broker's confirm */
    public void setConfirmTimeout(Duration confirmTimeout) {
      this.confirmTimeout = confirmTimeout;
    }
  }

  /**
   * The Kafka publisher: every entry to the Kafka topic named like its outbox topic, except those
   * {@code topics} maps, keyed by its ordering key, acknowledged by all in-sync replicas.
   * {@code bootstrap-servers} falls back to {@code spring.kafka.bootstrap-servers}.
   */
  public static class Kafka {
    private boolean enabled;
    private String bootstrapServers;
    private Map<String, String> topics = new LinkedHashMap<>();
    private Map<String, String> producer = new LinkedHashMap<>();
    private Duration sendTimeout = Duration.ofSeconds(30);

    /** @return whether the starter builds the Kafka publisher */
    public boolean isEnabled() {
      return enabled;
    }

    /** @param enabled whether the starter builds the Kafka publisher */
    public void setEnabled(boolean enabled) {
      this.enabled = enabled;
    }

    /** @return the brokers; unset: {@code spring.kafka.bootstrap-servers} */
    public String getBootstrapServers() {
      return bootstrapServers;
    }

    /** @param bootstrapServers the brokers, comma-separated host:port */
    public void setBootstrapServers(String bootstrapServers) {
      this.bootstrapServers = bootstrapServers;
    }

    /** @return per outbox topic, the Kafka topic it goes to instead of the one named alike */
    public Map<String, String> getTopics() {
      return topics;
    }

    /** @param topics per outbox topic, the Kafka topic it goes to */
    public void setTopics(Map<String, String> topics) {
      this.topics = topics;
    }

    /** @return further producer settings (TLS, SASL, linger…); acknowledgements and serializers are the publisher's */
    public Map<String, String> getProducer() {
      return producer;
    }

    /** @param producer further producer settings */
    public void setProducer(Map<String, String> producer) {
      this.producer = producer;
    }

    /** @return how long a send waits for the broker's acknowledgement before the attempt counts as failed */
    public Duration getSendTimeout() {
      return sendTimeout;
    }

    /** @param sendTimeout how long a send waits for the broker's acknowledgement */
    public void setSendTimeout(Duration sendTimeout) {
      this.sendTimeout = sendTimeout;
    }
  }
}
