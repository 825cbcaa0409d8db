package io.claimedoutbox.cli;

import picocli.CommandLine.Option;

/** Options every command has. */
final class CommonOptions {

  /** Read by the error handler: a failure prints its stack trace only with {@code --verbose}. */
  static volatile boolean verbose;

  @Option(names = "--verbose", description = "Print stack traces of failures.")
  void setVerbose(boolean value) {
    verbose = value;
  }
}
