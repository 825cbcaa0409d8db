package io.claimedoutbox.cli;

/** A backend named on the command line could not be reached or prepared; one line says why. */
final class UnreachableBackendException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private UnreachableBackendException(String message, Throwable cause) {
    super(message, cause);
  }

  /**
   * @param backend the backend's name, for example {@code PostgreSQL}
   * @param url the address as the user gave it
   * @param cause the driver's failure; its innermost message is the reason shown
   * @return "cannot reach {backend} at {url}: {reason}"
   */
  static UnreachableBackendException at(String backend, String url, Throwable cause) {
    return new UnreachableBackendException("cannot reach " + backend + " at " + url + ": " + rootMessage(cause), cause);
  }

  /**
   * @param backend the backend's name
   * @param url the address as the user gave it
   * @param reason the reason in a few words, when the driver's own message is too long to be one line
   * @param cause the driver's failure, for {@code --verbose}
   * @return "cannot reach {backend} at {url}: {reason}"
   */
  static UnreachableBackendException withReason(String backend, String url, String reason, Throwable cause) {
    return new UnreachableBackendException("cannot reach " + backend + " at " + url + ": " + reason, cause);
  }

  /**
   * @param failure a failure, possibly wrapped several times
   * @return the innermost cause's message, or its class name when it has none
   */
  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
