package io.claimedoutbox.port.payload;

/**
 * Turns application objects into outbox payloads and back, so the code that appends and the
 * handler that delivers deal in objects, not bytes. An implementation names its content type,
 * which {@link TypedMessages} stores in the {@value TypedMessages#CONTENT_TYPE} header. The
 * {@code outbox-jackson} module provides JSON.
 *
 * <p>Implementations must be thread-safe.
 */
public interface PayloadCodec {

  /** @return the content type payloads are written in, for example {@code application/json} */
  String contentType();

  /**
   * @param value the object to append
   * @return its payload
   * @throws IllegalArgumentException naming the value's type when it cannot be written
   */
  byte[] encode(Object value);

  /**
   * @param payload a payload this codec (or a compatible one) wrote
   * @param type the type to read it as
   * @param <T> the type
   * @return the object
   * @throws UndecodablePayloadException when the payload is not a {@code type} any more (a renamed
   *     field, a changed type, foreign bytes)
   */
  <T> T decode(byte[] payload, Class<T> type);
}
