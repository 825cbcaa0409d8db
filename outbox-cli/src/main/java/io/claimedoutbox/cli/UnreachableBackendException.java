package io.claimedoutbox.cli;

/** A backend named on the command line could not be reached or prepared; one line says why. */
final class UnreachableBackendException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  UnreachableBackendException(String message, Throwable cause) {
    super(message, cause);
  }
}
