package io.claimedoutbox.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.function.IntSupplier;

/** Runs the program in this JVM as a user would, capturing what it prints and its exit status. */
final class ProgramRun {

  private ProgramRun() {}

  record Run(int status, String out, String err) {}

  static Run run(String... args) {
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      IntSupplier main = () -> Main.run(args);
      int status = main.getAsInt();
      return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
      CommonOptions.verbose = false;
    }
  }
}
