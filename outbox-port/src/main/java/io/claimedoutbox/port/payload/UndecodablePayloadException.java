package io.claimedoutbox.port.payload;

/**
 * A payload that cannot be read as the type asked for. Retrying does not help, so a typed handler
 * reports it as a permanent failure and the drain dead-letters the entry with this message.
 */
public class UndecodablePayloadException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what could not be read, and as which type
   * @param cause the codec's own failure
   */
  public UndecodablePayloadException(String message, Throwable cause) {
    super(message, cause);
  }
}
