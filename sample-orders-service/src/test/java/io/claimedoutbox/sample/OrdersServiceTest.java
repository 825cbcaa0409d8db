package io.claimedoutbox.sample;

import static org.assertj.core.api.Assertions.assertThat;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.micrometer.tracing.test.autoconfigure.AutoConfigureTracing;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** The whole service on the machine's PostgreSQL and RabbitMQ: HTTP in, an event out through the outbox. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureTracing
@DisplayName("Sample orders service: one transaction for the order and its event, delivered to RabbitMQ in the request's trace")
class OrdersServiceTest {

  private static final String DATABASE = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");
  private static final String SCHEMA = "orders_sample_" + UUID.randomUUID().toString().substring(0, 8);
  private static final String EXCHANGE = "orders-sample-" + UUID.randomUUID();
  private static final Pattern FIELD = Pattern.compile("\"(\\w+)\":\"([^\"]*)\"");

  private static Connection rabbit;
  private static Channel channel;
  private static String queue;

  @DynamicPropertySource
  static void infrastructure(DynamicPropertyRegistry registry) {
    registry.add("spring.datasource.url", () -> DATABASE + (DATABASE.contains("?") ? "&" : "?") + "currentSchema=" + SCHEMA);
    registry.add("orders.rabbitmq.exchange", () -> EXCHANGE);
    registry.add("orders.rabbitmq.queue", () -> "");
  }

  @BeforeAll
  static void createSchemaAndQueue() throws Exception {
    try (var connection = DriverManager.getConnection(DATABASE); Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA " + SCHEMA);
    }
    ConnectionFactory factory = new ConnectionFactory();
    factory.setHost("127.0.0.1");
    rabbit = factory.newConnection("orders-sample-test");
    channel = rabbit.createChannel();
    channel.exchangeDeclare(EXCHANGE, "topic", true);
    queue = channel.queueDeclare().getQueue();
    channel.queueBind(queue, EXCHANGE, "orders.#");
  }

  @AfterAll
  static void dropSchemaAndExchange() throws Exception {
    channel.exchangeDelete(EXCHANGE);
    rabbit.close();
    try (var connection = DriverManager.getConnection(DATABASE); Statement statement = connection.createStatement()) {
      statement.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
    }
  }

  @LocalServerPort
  int port;
  @Autowired
  DataSource dataSource;
  @Autowired
  DeliveryLog deliveries;

  private HttpResponse<String> call(String method, String path, String body) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("content-type", "application/json").timeout(Duration.ofSeconds(10));
    request = body == null ? request.GET() : request.method(method, HttpRequest.BodyPublishers.ofString(body));
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static String field(String json, String name) {
    Matcher matcher = FIELD.matcher(json);
    while (matcher.find()) {
      if (matcher.group(1).equals(name)) {
        return matcher.group(2);
      }
    }
    throw new AssertionError("no " + name + " in " + json);
  }

  private GetResponse awaitMessage(Duration timeout) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    GetResponse message;
    while ((message = channel.basicGet(queue, true)) == null && Instant.now().isBefore(deadline)) {
      Thread.onSpinWait();
    }
    return message;
  }

  @Autowired
  org.springframework.core.env.Environment environment;

  @Test
  @org.junit.jupiter.api.DisplayName("runs under Boot's defaults: open-in-view is on (the other tests place orders through it)")
  void bootsDefaultOpenInViewIsInForce() {
    assertThat(environment.getProperty("spring.jpa.open-in-view")).as("set nowhere: Boot's default (true) applies").isNull();
  }

  @Test
  void aPlacedOrderIsPublishedInTheRequestsTrace() throws Exception {
    HttpResponse<String> placed = call("POST", "/orders", "{\"customerId\":\"c-1\",\"item\":\"book\",\"quantity\":2}");
    assertThat(placed.statusCode()).as(placed.body()).isEqualTo(201);
    String orderId = field(placed.body(), "orderId");
    String traceId = field(placed.body(), "traceId");
    assertThat(traceId).isNotBlank();

    GetResponse message = awaitMessage(Duration.ofSeconds(30));
    assertThat(message).as("the order's event on RabbitMQ within 30 s").isNotNull();
    assertThat(new String(message.getBody(), StandardCharsets.UTF_8)).contains(orderId);
    assertThat(message.getEnvelope().getRoutingKey()).isEqualTo("orders.placed");
    assertThat(String.valueOf(message.getProps().getHeaders().get("traceparent"))).contains(traceId);
    assertThat(deliveries.traceOf(field(placed.body(), "eventId"))).as("the trace the delivery ran in")
        .contains(traceId);
  }

  @Test
  void aRejectedOrderLeavesNeitherTheOrderNorItsEvent() throws Exception {
    HttpResponse<String> rejected = call("POST", "/orders", "{\"customerId\":\"c-2\",\"item\":\"pen\",\"quantity\":0}");
    assertThat(rejected.statusCode()).as(rejected.body()).isEqualTo(400);
    JdbcTemplate jdbc = new JdbcTemplate(dataSource);
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM customer_order WHERE customer_id = 'c-2'", Long.class)).isZero();
    assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM outbox_entry WHERE ordering_key = 'c-2'", Long.class)).isZero();
  }

  @Test
  void healthAndMetricsAnswer() throws Exception {
    HttpResponse<String> health = call("GET", "/actuator/health", null);
    assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
    assertThat(health.body()).contains("\"outbox\"").contains("\"backend\":\"jpa\"");
    HttpResponse<String> entries = call("GET", "/actuator/metrics/outbox.entries", null);
    assertThat(entries.statusCode()).as(entries.body()).isEqualTo(200);
    assertThat(entries.body()).contains("\"status\"");
  }
}
