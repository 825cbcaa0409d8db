package io.claimedoutbox.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.claimedoutbox.spring.readme.OrderService;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The README's Spring Boot start is this package's {@code OrderService} and {@code readme/application.properties},
 * word for word, and they work: the order's event reaches RabbitMQ through the drain, and a failed
 * order leaves no event.
 */
@DisplayName("README: the Spring Boot start is compiled, run, and shown word for word")
class ReadmeSpringStartTest {

  private static final String RABBITMQ = Optional.ofNullable(System.getenv("OUTBOX_RABBITMQ_HOST")).orElse("127.0.0.1:5672");
  private static final Path SERVICE = Path.of("src/test/java/io/claimedoutbox/spring/readme/OrderService.java");
  private static final Path PROPERTIES = Path.of("src/test/resources/readme/application.properties");

  @Test
  void readmeShowsTheseFiles() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    String service = Files.readString(SERVICE).replaceFirst("(?s)^package [^;]*;\n\n", "");
    assertThat(readme).as("README.md should show OrderService.java (without its package line)")
        .contains("```java\n" + service + "```");
    assertThat(readme).as("README.md should show readme/application.properties")
        .contains("```properties\n" + Files.readString(PROPERTIES) + "```");
  }

  @Test
  void theStartDeliversToRabbitMq() throws Exception {
    Properties shown = new Properties();
    shown.load(new StringReader(Files.readString(PROPERTIES)));
    String exchange = "readme-" + UUID.randomUUID();
    List<String> properties = new ArrayList<>();
    try (PostgreSqlSchema schema = new PostgreSqlSchema(); Connection admin = rabbitMq()) {
      shown.forEach((name, value) -> properties.add(name + "=" + switch (name.toString()) {
        case "spring.datasource.url" -> schema.url();
        case "claimed-outbox.publisher.rabbitmq.exchange" -> exchange;
        default -> value;
      }));
      String[] hostAndPort = RABBITMQ.split(":");
      properties.add("spring.rabbitmq.host=" + hostAndPort[0]);
      properties.add("spring.rabbitmq.port=" + hostAndPort[1]);
      Channel channel = admin.createChannel();
      channel.exchangeDeclare(exchange, "topic", false, true, null);
      String queue = channel.queueDeclare().getQueue();
      channel.queueBind(queue, exchange, "orders.placed");

      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
              DataSourceTransactionManagerAutoConfiguration.class, TransactionAutoConfiguration.class,
              JdbcTemplateAutoConfiguration.class, JacksonAutoConfiguration.class, ClaimedOutboxAutoConfiguration.class))
          .withUserConfiguration(OrderService.class)
          .withPropertyValues(properties.toArray(String[]::new))
          .run(context -> {
            assertThat(context).hasNotFailed();
            context.getBean(JdbcTemplate.class).execute("CREATE TABLE orders (id TEXT PRIMARY KEY, customer_id TEXT)");
            OrderService orders = context.getBean(OrderService.class);
            orders.place("o-1", "c-1");
            try {
              orders.place("o-1", "c-2");
            } catch (RuntimeException duplicateOrder) {
              // the second insert fails on the primary key, and its transaction takes the event with it
            }

            GetResponse message = await(channel, queue);
            assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).contains("\"orderId\":\"o-1\"")
                .contains("\"customerId\":\"c-1\"");
            assertThat(context.getBean(ClaimedOutboxStore.class).countByStatus().total()).as("entries").isEqualTo(1);
          });
    }
  }

  private static Connection rabbitMq() {
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost(RABBITMQ.split(":")[0]);
    factory.setPort(Integer.parseInt(RABBITMQ.split(":")[1]));
    try {
      return factory.newConnection("readme-test");
    } catch (Exception unreachable) {
      throw new IllegalStateException("RabbitMQ is required for this test but is not reachable at " + RABBITMQ
          + ". Start it (`bash .ci/run` does) or set OUTBOX_RABBITMQ_HOST=host:port.", unreachable);
    }
  }

  private static GetResponse await(Channel channel, String queue) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
    GetResponse response;
    while ((response = channel.basicGet(queue, true)) == null) {
      assertThat(Instant.now()).as("a message within 30 s").isBefore(deadline);
      Thread.onSpinWait();
    }
    return response;
  }
}
