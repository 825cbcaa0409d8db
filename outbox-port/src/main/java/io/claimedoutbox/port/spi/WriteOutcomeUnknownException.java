package io.claimedoutbox.port.spi;

import io.claimedoutbox.port.OutboxStoreException;

/**
 * Thrown by an {@link EntryStorage} when a write was sent but its answer was lost (the connection
 * broke after the request left), so it may or may not have landed. {@link StorageBackedOutboxStore}
 * then decides the transition from the entry read again ({@link io.claimedoutbox.port.spi.LostAcknowledgement});
 * an adapter author never guesses.
 */
public class WriteOutcomeUnknownException extends OutboxStoreException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what was being written
   * @param cause the failure that lost the answer
   */
  public WriteOutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
