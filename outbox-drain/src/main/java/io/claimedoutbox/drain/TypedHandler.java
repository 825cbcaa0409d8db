package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.port.payload.TypedMessages;
import io.claimedoutbox.port.payload.UndecodablePayloadException;

/**
 * A handler that receives the object an entry holds, not its bytes. A payload that no longer reads
 * as the type (a renamed field, foreign bytes) can never be delivered, so it is dead-lettered with
 * the reason instead of retried forever.
 *
 * @param <T> the payload's type
 */
@FunctionalInterface
public interface TypedHandler<T> {

  /**
   * Emits one message.
   *
   * @param value the payload, read
   * @param message the claimed message it came with (headers, attempt, token generation)
   * @throws Exception when it could not be emitted; retried per the drain's policy
   */
  void handle(T value, ClaimedMessage message) throws Exception;

  /**
   * The drain's handler for {@code handler}: reads each payload as {@code type} with {@code codec}.
   *
   * @param type the payload's type
   * @param codec how payloads were written
   * @param handler what to do with each object
   * @param <T> the type
   * @return the handler to give the drain
   */
  static <T> OutboxMessageHandler of(Class<T> type, PayloadCodec codec, TypedHandler<T> handler) {
    Arguments.requireNonNull(type, "type");
    Arguments.requireNonNull(codec, "codec");
    Arguments.requireNonNull(handler, "handler");
    return message -> {
      T value;
      try {
        value = TypedMessages.read(message.entry(), type, codec);
      } catch (UndecodablePayloadException unreadable) {
        throw new PermanentDeliveryFailure("payload is not a " + type.getName() + ": " + unreadable.getMessage(),
            unreadable);
      }
      handler.handle(value, message);
    };
  }
}
