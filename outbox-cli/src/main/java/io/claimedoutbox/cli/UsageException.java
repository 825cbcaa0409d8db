package io.claimedoutbox.cli;

/** The command line asked for something that cannot be: an unknown backend, a malformed URL. */
final class UsageException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  UsageException(String message) {
    super(message);
  }
}
