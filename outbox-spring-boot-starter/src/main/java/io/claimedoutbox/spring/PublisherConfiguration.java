package io.claimedoutbox.spring;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.kafka.KafkaPublisher;
import io.claimedoutbox.rabbitmq.RabbitMqPublisher;
import java.util.HashMap;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * The RabbitMQ and Kafka publishers built from {@link PublisherProperties}, each only when its
 * client and our module for it are on the class path and the application has not built one itself.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(PublisherProperties.class)
@Import({PublisherConfiguration.Rabbitmq.class, PublisherConfiguration.Kafka.class})
class PublisherConfiguration {

  /** RabbitMQ, on {@code claimed-outbox.publisher.rabbitmq.exchange}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"io.claimedoutbox.rabbitmq.RabbitMqPublisher", "com.rabbitmq.client.ConnectionFactory"})
  @ConditionalOnProperty(prefix = "claimed-outbox.publisher.rabbitmq", name = "exchange")
  static class Rabbitmq {
    @Bean
    @ConditionalOnMissingBean(RabbitMqPublisher.class)
    RabbitMqPublisher claimedOutboxRabbitMqPublisher(PublisherProperties properties,
        ObjectProvider<com.rabbitmq.client.ConnectionFactory> factory, Environment environment) {
      PublisherProperties.Rabbitmq settings = properties.getRabbitmq();
      Map<String, PublisherProperties.Route> routes = Map.copyOf(settings.getRoutes());
      String exchange = settings.getExchange();
      return RabbitMqPublisher.builder(factory.getIfAvailable(() -> connectionFactory(environment)))
          .router(entry -> route(entry, routes.get(entry.message().topic()), exchange))
          .confirmTimeout(settings.getConfirmTimeout())
          .build();
    }

    private static RabbitMqPublisher.Route route(OutboxEntry entry, PublisherProperties.Route route, String exchange) {
      String topic = entry.message().topic();
      if (route == null) {
        return new RabbitMqPublisher.Route(exchange, topic);
      }
      return new RabbitMqPublisher.Route(route.getExchange() != null ? route.getExchange() : exchange,
          route.getRoutingKey() != null ? route.getRoutingKey() : topic);
    }

    /** Spring Boot's own RabbitMQ properties, read as text so that Spring AMQP need not be present. */
    private static com.rabbitmq.client.ConnectionFactory connectionFactory(Environment environment) {
      com.rabbitmq.client.ConnectionFactory factory = new com.rabbitmq.client.ConnectionFactory();
      factory.setHost(environment.getProperty("spring.rabbitmq.host", "localhost"));
      factory.setPort(environment.getProperty("spring.rabbitmq.port", Integer.class, 5672));
      factory.setUsername(environment.getProperty("spring.rabbitmq.username", "guest"));
      factory.setPassword(environment.getProperty("spring.rabbitmq.password", "guest"));
      factory.setVirtualHost(environment.getProperty("spring.rabbitmq.virtual-host", "/"));
      return factory;
    }
  }

  /** Kafka, on {@code claimed-outbox.publisher.kafka.enabled=true}. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = {"io.claimedoutbox.kafka.KafkaPublisher", "org.apache.kafka.clients.producer.KafkaProducer"})
  @ConditionalOnProperty(prefix = "claimed-outbox.publisher.kafka", name = "enabled", havingValue = "true")
  static class Kafka {
    @Bean
    @ConditionalOnMissingBean(KafkaPublisher.class)
    KafkaPublisher claimedOutboxKafkaPublisher(PublisherProperties properties, Environment environment) {
      PublisherProperties.Kafka settings = properties.getKafka();
      Map<String, Object> config = new HashMap<>(settings.getProducer());
      String servers = settings.getBootstrapServers() != null ? settings.getBootstrapServers()
          : environment.getProperty("spring.kafka.bootstrap-servers", "localhost:9092");
      config.put("bootstrap.servers", servers);
      Map<String, String> topics = Map.copyOf(settings.getTopics());
      return KafkaPublisher.builder(config)
          .topics(entry -> topics.getOrDefault(entry.message().topic(), entry.message().topic()))
          .sendTimeout(settings.getSendTimeout())
          .build();
    }
  }
}
