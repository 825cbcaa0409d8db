package io.claimedoutbox.port.spi;

/**
 * A {@link WriteOutcomeUnknownException} where the client stopped waiting (a read timeout, an
 * operation timeout, an interrupted wait) while the backend may still be running the write:
 * reading the entry now proves nothing, so {@link TransitionKernel} reports the outcome unknown
 * with the write's stamp instead of deciding from a read.
 */
public class WriteStillRunningException extends WriteOutcomeUnknownException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message what was being written
   * @param cause the failure that ended the wait
   */
  public WriteStillRunningException(String message, Throwable cause) {
    super(message, cause);
  }
}
