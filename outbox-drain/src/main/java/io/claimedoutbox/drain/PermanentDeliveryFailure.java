package io.claimedoutbox.drain;

/** Thrown by a handler for a message that can never be emitted: the drain dead-letters it at once. */
public class PermanentDeliveryFailure extends Exception {

  private static final long serialVersionUID = 1L;

  /**
   * @param message why the message can never be emitted (stored as the dead-letter reason)
   */
  public PermanentDeliveryFailure(String message) {
    super(message);
  }

  /**
   * @param message why the message can never be emitted (stored as the dead-letter reason)
   * @param cause the underlying failure
   */
  public PermanentDeliveryFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
