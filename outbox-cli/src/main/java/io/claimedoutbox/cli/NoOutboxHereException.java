package io.claimedoutbox.cli;

/**
 * The server answered but the place the command names holds no outbox (no table, no keys under the
 * prefix, no collection): the operator named the wrong place, so exit status 2, with how to fix it.
 */
final class NoOutboxHereException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  NoOutboxHereException(String message) {
    super(message);
  }
}
