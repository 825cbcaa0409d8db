package io.claimedoutbox.kafka;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.drain.ClaimedMessage;
import io.claimedoutbox.drain.OutboxMessageHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A drain handler that publishes each claimed entry to Kafka and returns only once the broker
 * acknowledged it with every in-sync replica ({@code acks=all}), through an idempotent producer, so
 * the producer's own retries never write a record twice. The entry's ordering key becomes the
 * record key (one partition per key); the record carries the entry's headers,
 * {@value #ENTRY_ID} and {@value #TOKEN_GENERATION} (the claim's generation, so a consumer can fence
 * out a late, superseded delivery).
 *
 * <p>Delivery is at least once: an acknowledgement lost with a broken connection makes the drain
 * publish again; consumers deduplicate by {@value #ENTRY_ID}. The publisher builds its producer
 * from the caller's configuration (bootstrap servers, security) and closes it in {@link #close()}.
 * Thread-safe: one producer serves every handler thread.
 */
public final class KafkaPublisher implements OutboxMessageHandler, AutoCloseable {

  /** The header with the entry's id. */
  public static final String ENTRY_ID = "x-outbox-entry-id";
  /** The header with the claim's token generation, in decimal. */
  public static final String TOKEN_GENERATION = "x-outbox-token-generation";

  private final KafkaProducer<byte[], byte[]> producer;
  private final Function<OutboxEntry, String> topics;
  private final long sendTimeoutMillis;

  private KafkaPublisher(Builder builder) {
    Map<String, Object> config = new HashMap<>(builder.config);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    this.producer = new KafkaProducer<>(config);
    this.topics = builder.topics;
    this.sendTimeoutMillis = builder.sendTimeout.toMillis();
  }

  /**
   * @param producerConfig the caller's producer settings (at least {@code bootstrap.servers});
   *     acknowledgements, idempotence and serializers are set by the publisher
   * @return a builder: each entry goes to the Kafka topic named like its outbox topic
   */
  public static Builder builder(Map<String, Object> producerConfig) {
    Arguments.requireNonNull(producerConfig, "producerConfig");
    if (!producerConfig.containsKey(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG)) {
      throw new IllegalArgumentException("producerConfig must name bootstrap.servers");
    }
    return new Builder(producerConfig);
  }

  @Override
  public void handle(ClaimedMessage message) throws ExecutionException, InterruptedException, TimeoutException {
    OutboxEntry entry = message.entry();
    RecordHeaders headers = new RecordHeaders();
    entry.message().headers().forEach((name, value) -> headers.add(name, value.getBytes(StandardCharsets.UTF_8)));
    headers.add(ENTRY_ID, entry.id().value().getBytes(StandardCharsets.UTF_8));
    headers.add(TOKEN_GENERATION, Long.toString(message.tokenGeneration()).getBytes(StandardCharsets.UTF_8));
    byte[] key = entry.message().orderingKey().map(value -> value.getBytes(StandardCharsets.UTF_8)).orElse(null);
    // The record takes the producer's time: a broker rejects timestamps far from its own clock, and
    // an entry can wait long in the outbox.
    producer.send(new ProducerRecord<>(topics.apply(entry), null, null, key, entry.message().payload(), headers))
        .get(sendTimeoutMillis, TimeUnit.MILLISECONDS);
  }

  /** Closes the producer, waiting for records in flight. */
  @Override
  public void close() {
    producer.close();
  }

  /** Builds a {@link KafkaPublisher}. Not thread-safe. */
  public static final class Builder {
    private final Map<String, Object> config;
    private Function<OutboxEntry, String> topics = entry -> entry.message().topic();
    private Duration sendTimeout = Duration.ofSeconds(30);

    private Builder(Map<String, Object> config) {
      this.config = Map.copyOf(config);
    }

    /**
     * @param value the Kafka topic of an entry (default: its outbox topic)
     * @return this builder
     */
    public Builder topics(Function<OutboxEntry, String> value) {
      this.topics = Arguments.requireNonNull(value, "topics");
      return this;
    }

    /**
     * @param value how long to wait for the broker's acknowledgement before the attempt counts as
     *     failed (default 30 s)
     * @return this builder
     */
    public Builder sendTimeout(Duration value) {
      this.sendTimeout = Arguments.requirePositive(value, "sendTimeout");
      return this;
    }

    /** @return the publisher, with its producer */
    public KafkaPublisher build() {
      return new KafkaPublisher(this);
    }
  }
}
