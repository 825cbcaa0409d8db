package io.claimedoutbox.spring;

/**
 * The application cannot start with Claimed Outbox as configured: a missing table, backend or
 * handler, an unsupported version. Its message says what is wrong and what to add or run; Boot
 * shows it as the "APPLICATION FAILED TO START" description ({@link OutboxStartupFailureAnalyzer}),
 * not as the seventh {@code Caused by} of a bean creation failure.
 */
public class OutboxStartupException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what is wrong and how to fix it
   */
  public OutboxStartupException(String message) {
    super(message);
  }

  /**
   * @param message what is wrong and how to fix it
   * @param cause the underlying failure
   */
  public OutboxStartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
