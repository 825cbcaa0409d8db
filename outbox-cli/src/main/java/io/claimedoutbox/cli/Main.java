package io.claimedoutbox.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code outbox} program. Exit status: 0 all good, 1 an invariant or a conformance rule broken,
 * 2 a bad command line (unknown backend, malformed URL, bad option), 3 a backend unreachable,
 * 4 an unexpected failure. Failures are one line on standard error; {@code --verbose} adds the
 * stack trace.
 */
public final class Main {

  static final int BROKEN = 1;
  static final int USAGE = 2;
  static final int UNREACHABLE = 3;
  static final int UNEXPECTED = 4;

  private Main() {}

  /**
   * @param args the command line
   */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /**
   * Runs the program with everything it prints or logs (messages, stack traces, a driver's log lines)
   * passed through a {@link Redaction} of the command line's credentials.
   */
  static int run(String... args) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    Redaction redaction = Redaction.of(args);
    System.setOut(RedactingOutput.around(out, redaction));
    System.setErr(RedactingOutput.around(err, redaction));
    try {
      return runRedacted(args);
    } finally {
      System.out.flush();
      System.err.flush();
      System.setOut(out);
      System.setErr(err);
    }
  }

  private static int runRedacted(String... args) {
    System.setProperty("org.jboss.logging.provider", "slf4j");
    CommandLine commandLine = new CommandLine(new OutboxCommand());
    commandLine.setExecutionExceptionHandler(new OneLineErrors());
    commandLine.setParameterExceptionHandler((problem, arguments) -> {
      PrintWriter err = problem.getCommandLine().getErr();
      err.println("outbox: " + problem.getMessage());
      UnmatchedArgumentException.printSuggestions(problem, err);
      err.println("Try '" + problem.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
      return USAGE;
    });
    return commandLine.execute(withDefaultCommand(args));
  }

  /** {@code outbox} alone, or with only race options, means {@code outbox race}. */
  static String[] withDefaultCommand(String... args) {
    boolean asksForTopLevel = args.length > 0 && List.of("-h", "--help", "-V", "--version").contains(args[0]);
    if (asksForTopLevel || (args.length > 0 && !args[0].startsWith("-"))) {
      return args;
    }
    String[] race = new String[args.length + 1];
    race[0] = "race";
    System.arraycopy(args, 0, race, 1, args.length);
    return race;
  }

  /** Turns failures into one line, with a stack trace only under {@code --verbose}. */
  private static final class OneLineErrors implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception failure, CommandLine commandLine, ParseResult parseResult) {
      PrintWriter err = commandLine.getErr();
      int status;
      if (failure instanceof UsageException || failure instanceof NoOutboxHereException) {
        err.println("outbox: " + failure.getMessage());
        status = USAGE;
      } else if (failure instanceof UnreachableBackendException) {
        err.println("outbox: " + failure.getMessage());
        status = UNREACHABLE;
      } else {
        err.println("outbox: failed: " + failure.getClass().getSimpleName() + ": " + UnreachableBackendException.rootMessage(failure));
        status = UNEXPECTED;
      }
      if (CommonOptions.verbose) {
        failure.printStackTrace(err);
      } else if (status == UNEXPECTED) {
        err.println("(run with --verbose for the stack trace)");
      }
      err.flush();
      return status;
    }
  }
}
