package io.claimedoutbox.domain;

import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A message a caller asks to append to the outbox. Immutable; validated when built, so an invalid
 * message never reaches a store: texts without NUL characters or unpaired surrogates
 * ({@link Arguments#requireStorable}), an available time within the storable horizon
 * ({@link Instants#requireStorable}).
 */
public final class OutboxMessage {

  /** The largest accepted payload, 1 MiB: an outbox carries events, not files. */
  public static final int MAX_PAYLOAD_BYTES = 1 << 20;
  /** The longest accepted topic or ordering key. */
  public static final int MAX_TOPIC_LENGTH = 255;
  /** The most headers one message may carry. */
  public static final int MAX_HEADERS = 64;
  /** The longest accepted header name. */
  public static final int MAX_HEADER_NAME_LENGTH = 255;
  /** The longest accepted header value. */
  public static final int MAX_HEADER_VALUE_LENGTH = 4096;

  private final String topic;
  private final String orderingKey;
  private final byte[] payload;
  private final Map<String, String> headers;
  private final Instant availableAt;

  private OutboxMessage(
      String topic, String orderingKey, byte[] payload, Map<String, String> headers,
      Instant availableAt) {
    this.topic = Arguments.requireStorable(Arguments.requireText(topic, "topic", MAX_TOPIC_LENGTH), "topic");
    this.orderingKey = orderingKey == null ? null : Arguments.requireStorable(
        Arguments.requireText(orderingKey, "orderingKey", MAX_TOPIC_LENGTH), "orderingKey");
    Arguments.requireNonNull(payload, "payload");
    if (payload.length > MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          "payload must be at most " + MAX_PAYLOAD_BYTES + " bytes, was " + payload.length);
    }
    this.payload = payload.clone();
    this.headers = validHeaders(headers);
    this.availableAt = availableAt == null ? null : Instants.stored(Instants.requireStorable(availableAt, "availableAt"));
  }

  /**
   * A message for {@code topic} with {@code payload}, no ordering key, no headers, available as
   * soon as it is appended.
   *
   * @param topic where the message goes; never blank, at most {@value #MAX_TOPIC_LENGTH} chars
   * @param payload the bytes to emit, at most {@value #MAX_PAYLOAD_BYTES}; copied
   * @return the message
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException if an argument is blank or too large
   */
  public static OutboxMessage of(String topic, byte[] payload) {
    return new OutboxMessage(topic, null, payload, Map.of(), null);
  }

  /**
   * A message as an adapter decodes it from stored fields, validated like any other.
   *
   * @param topic the stored topic
   * @param orderingKey the stored ordering key, {@code null} when there was none
   * @param payload the stored payload; copied
   * @param headers the stored headers
   * @return the message, without an available time
   * @throws IllegalArgumentException if a stored value is not a valid message field
   */
  public static OutboxMessage restored(String topic, String orderingKey, byte[] payload, Map<String, String> headers) {
    return new OutboxMessage(topic, orderingKey, payload, Arguments.requireNonNull(headers, "headers"), null);
  }

  /**
   * This message with an ordering key.
   *
   * @param key the ordering key; never blank, at most {@value #MAX_TOPIC_LENGTH} chars
   * @return a new message
   */
  public OutboxMessage withOrderingKey(String key) {
    return new OutboxMessage(
        topic, Arguments.requireNonNull(key, "orderingKey"), payload, headers, availableAt);
  }

  /**
   * This message with one more header (replacing a header of the same name).
   *
   * @param name the header's name
   * @param value the header's value
   * @return a new message
   */
  public OutboxMessage withHeader(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(Arguments.requireNonNull(name, "headerName"), Arguments.requireNonNull(value, "headerValue"));
    return new OutboxMessage(topic, orderingKey, payload, more, availableAt);
  }

  /**
   * This message with exactly these headers, replacing any it had.
   *
   * @param all the headers, in the order to keep
   * @return a new message
   */
  public OutboxMessage withHeaders(Map<String, String> all) {
    return new OutboxMessage(topic, orderingKey, payload, Arguments.requireNonNull(all, "headers"), availableAt);
  }

  /** This message without an available time: what an entry keeps once the time is its own. */
  OutboxMessage withoutAvailableAt() {
    return availableAt == null ? this : new OutboxMessage(topic, orderingKey, payload, headers, null);
  }

  /**
   * This message, not to be claimed before {@code instant}.
   *
   * @param instant the earliest time a worker may claim it
   * @return a new message
   */
  public OutboxMessage availableAt(Instant instant) {
    return new OutboxMessage(
        topic, orderingKey, payload, headers, Arguments.requireNonNull(instant, "availableAt"));
  }

  /** @return the topic */
  public String topic() {
    return topic;
  }

  /** @return the ordering key, if one was set */
  public Optional<String> orderingKey() {
    return Optional.ofNullable(orderingKey);
  }

  /** @return a copy of the payload */
  public byte[] payload() {
    return payload.clone();
  }

  /** @return the payload's length in bytes, without copying it */
  public int payloadSize() {
    return payload.length;
  }

  /** @return the headers, unmodifiable, in insertion order */
  public Map<String, String> headers() {
    return headers;
  }

  /** @return the earliest claim time, if one was set; otherwise the append time applies */
  public Optional<Instant> availableAt() {
    return Optional.ofNullable(availableAt);
  }

  private static Map<String, String> validHeaders(Map<String, String> headers) {
    if (headers.size() > MAX_HEADERS) {
      throw new IllegalArgumentException(
          "headers must be at most " + MAX_HEADERS + ", were " + headers.size());
    }
    Map<String, String> copy = new LinkedHashMap<>();
    headers.forEach((name, value) -> {
      Arguments.requireStorable(Arguments.requireText(name, "headerName", MAX_HEADER_NAME_LENGTH), "headerName");
      Arguments.requireNonNull(value, "headerValue");
      Arguments.requireStorable(Arguments.requireMaxLength(value, "headerValue", MAX_HEADER_VALUE_LENGTH), "headerValue");
      copy.put(name, value);
    });
    return Collections.unmodifiableMap(copy);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutboxMessage that
        && topic.equals(that.topic)
        && java.util.Objects.equals(orderingKey, that.orderingKey)
        && Arrays.equals(payload, that.payload)
        && headers.equals(that.headers)
        && java.util.Objects.equals(availableAt, that.availableAt);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(topic, orderingKey, Arrays.hashCode(payload), headers, availableAt);
  }

  @Override
  public String toString() {
    return "OutboxMessage[topic=" + topic + ", orderingKey=" + orderingKey
        + ", payload=" + payload.length + " bytes, headers=" + headers.keySet() + "]";
  }
}
