package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.drain.TypedHandler;
import io.claimedoutbox.jackson.Jackson3PayloadCodec;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.TypedMessages;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPooled;

/**
 * A Boot 4 application on Jackson 3 with typed payloads: the starter's codec is Boot's own
 * {@code JsonMapper} (so {@code spring.jackson.*} applies to payloads), the application appends an
 * object and its handler receives it typed, through a real store (Redis) and the drain.
 */
@DisplayName("Spring Boot starter: typed payloads through Boot's Jackson 3 mapper")
class StarterJacksonPayloadsTest {

  private static final String REDIS = Optional.ofNullable(System.getenv("OUTBOX_REDIS_URL"))
      .map(url -> url.startsWith("redis://") ? url : "redis://" + url).orElse("redis://127.0.0.1:6379");

  /** The event the application appends. */
  record OrderPlaced(String orderId, long totalCents) {}

  /** What the application's typed handler received. */
  static final List<OrderPlaced> RECEIVED = new CopyOnWriteArrayList<>();
  static volatile CountDownLatch delivered = new CountDownLatch(1);

  /** The application's handler: typed, over the codec the starter offers. */
  @Configuration(proxyBeanMethods = false)
  static class Handlers {
    @Bean
    OutboxMessageHandler orders(PayloadCodec codec) {
      return TypedHandler.of(OrderPlaced.class, codec, (order, message) -> {
        RECEIVED.add(order);
        delivered.countDown();
      });
    }
  }

  @Test
  void anObjectAppendedWithBootsMapperReachesTheTypedHandler() throws Exception {
    String prefix = "outbox-jackson-" + UUID.randomUUID().toString().substring(0, 8);
    RECEIVED.clear();
    delivered = new CountDownLatch(1);
    try {
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(JacksonAutoConfiguration.class, ClaimedOutboxAutoConfiguration.class))
          .withUserConfiguration(Handlers.class)
          .withPropertyValues("claimed-outbox.redis.url=" + REDIS, "claimed-outbox.redis.key-prefix=" + prefix,
              "spring.jackson.property-naming-strategy=SNAKE_CASE")
          .run(context -> {
            assertThat(context).hasNotFailed();
            PayloadCodec codec = context.getBean(PayloadCodec.class);
            assertThat(codec).isInstanceOf(Jackson3PayloadCodec.class);
            ClaimedOutboxStore store = context.getBean(ClaimedOutboxStore.class);

            OutboxEntry appended = store.append(TypedMessages.of("orders", new OrderPlaced("o-42", 1_999), codec));

            assertThat(new String(appended.message().payload(), StandardCharsets.UTF_8))
                .as("written by Boot's mapper, with its naming strategy")
                .contains("\"order_id\":\"o-42\"").contains("\"total_cents\":1999");
            assertThat(delivered.await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
            assertThat(RECEIVED).containsExactly(new OrderPlaced("o-42", 1_999));
          });
    } finally {
      try (JedisPooled redis = new JedisPooled(java.net.URI.create(REDIS))) {
        redis.keys("{" + prefix + ":*").forEach(redis::del);
      }
    }
  }

  @Test
  void aCodecOfTheApplicationsOwnReplacesTheStartersAndNoJacksonMeansNoCodec() {
    PayloadCodec own = Jackson3PayloadCodec.using(new tools.jackson.databind.json.JsonMapper());
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(JacksonPayloadConfiguration.class, JacksonAutoConfiguration.class))
        .withBean(PayloadCodec.class, () -> own)
        .run(context -> assertThat(context.getBean(PayloadCodec.class)).isSameAs(own));
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(JacksonPayloadConfiguration.class))
        .run(context -> assertThat(context).doesNotHaveBean(PayloadCodec.class));
  }
}
