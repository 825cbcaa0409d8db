package io.claimedoutbox.port;

/**
 * The root of every infrastructure failure a store reports: connection refused, timeout, a
 * constraint the adapter did not expect, undecodable stored data. Unchecked.
 *
 * <p>Outcomes of a transition ({@code STALE_CLAIM}, {@code CONCURRENCY_LOST}, …) are never
 * exceptions; an exception means the store could not answer.
 */
public class OutboxStoreException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what failed, for a human
   * @param cause the backend's own exception, may be {@code null}
   */
  public OutboxStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * @param message what failed, for a human
   */
  public OutboxStoreException(String message) {
    super(message);
  }
}
