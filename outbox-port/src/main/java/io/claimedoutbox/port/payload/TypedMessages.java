package io.claimedoutbox.port.payload;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;

/**
 * Messages made from objects, and objects read back from entries, through a {@link PayloadCodec}.
 * The message carries the codec's content type in {@value #CONTENT_TYPE} and the object's class in
 * {@value #PAYLOAD_TYPE}, so a consumer (or an operator) can tell what the bytes are.
 */
public final class TypedMessages {

  /** The header that names the payload's content type. */
  public static final String CONTENT_TYPE = "content-type";
  /** The header that names the payload's Java type. */
  public static final String PAYLOAD_TYPE = "payload-type";

  private TypedMessages() {}

  /**
   * A message whose payload is {@code value} as {@code codec} writes it.
   *
   * @param topic where the message goes
   * @param value the object, not {@code null}
   * @param codec how to write it
   * @return the message, with the two type headers
   * @throws IllegalArgumentException naming the value's type when the codec cannot write it
   */
  public static OutboxMessage of(String topic, Object value, PayloadCodec codec) {
    Arguments.requireNonNull(value, "value");
    Arguments.requireNonNull(codec, "codec");
    return OutboxMessage.of(topic, codec.encode(value))
        .withHeader(CONTENT_TYPE, codec.contentType())
        .withHeader(PAYLOAD_TYPE, value.getClass().getName());
  }

  /**
   * The entry's payload as a {@code type}.
   *
   * @param entry the entry
   * @param type the type to read
   * @param codec how to read it
   * @param <T> the type
   * @return the object
   * @throws UndecodablePayloadException when the payload is in another content type, or is not a
   *     {@code type}; the message names the entry
   */
  public static <T> T read(OutboxEntry entry, Class<T> type, PayloadCodec codec) {
    Arguments.requireNonNull(type, "type");
    Arguments.requireNonNull(codec, "codec");
    String stored = entry.message().headers().get(CONTENT_TYPE);
    if (stored != null && !stored.equals(codec.contentType())) {
      throw new UndecodablePayloadException("entry " + entry.id() + " holds " + stored + ", not "
          + codec.contentType(), null);
    }
    try {
      return codec.decode(entry.message().payload(), type);
    } catch (UndecodablePayloadException unreadable) {
      throw new UndecodablePayloadException("entry " + entry.id() + ": " + unreadable.getMessage(), unreadable);
    }
  }
}
