package io.claimedoutbox.drain;

/**
 * The port that actually emits a message (to a broker, a webhook, another service). The drain
 * calls it once per claim, on one of its handler threads.
 */
@FunctionalInterface
public interface OutboxMessageHandler {

  /**
   * Emits the message. Returning normally means it was emitted: the drain marks the entry
   * delivered. Throwing {@link PermanentDeliveryFailure} (or an exception the drain is configured
   * to treat as permanent) dead-letters it at once; any other exception schedules a retry, until
   * the retry policy's attempts are used up.
   *
   * <p>When the drain loses the claim (a lease renewal was not applied), it interrupts the handler
   * thread and sets {@link ClaimedMessage#isClaimLost()}; a long handler should check it and stop.
   * Delivery is at least once: fence downstream on {@link ClaimedMessage#tokenGeneration()}.
   *
   * @param message the claimed entry and its claim's generation
   * @throws Exception when the message could not be emitted
   */
  void handle(ClaimedMessage message) throws Exception;
}
