package io.claimedoutbox.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress bar on standard error, redrawn in place on a terminal; off a terminal (CI
 * logs) it prints a plain line at every tenth instead, so logs stay readable.
 */
final class ProgressBar {

  private static final int WIDTH = 30;

  private final PrintStream out;
  private final boolean terminal;
  private final String label;
  private final int total;
  private final long started = System.nanoTime();
  private int lastTenth = -1;

  ProgressBar(PrintStream out, boolean terminal, String label, int total) {
    this.out = out;
    this.terminal = terminal;
    this.label = label;
    this.total = total;
  }

  synchronized void update(int done) {
    int tenth = (int) (10L * done / total);
    double seconds = (System.nanoTime() - started) / 1e9;
    if (terminal) {
      int filled = (int) ((long) WIDTH * done / total);
      out.printf(Locale.ROOT, "\r%s [%s%s] %3d%%  %,d/%,d finished  %.1f s", label, "#".repeat(filled),
          ".".repeat(WIDTH - filled), 100L * done / total, done, total, seconds);
      if (done >= total) {
        out.println();
      }
    } else if (tenth != lastTenth) {
      out.printf(Locale.ROOT, "%s %3d%%  %,d/%,d finished  %.1f s%n", label, 10 * tenth, done, total, seconds);
    }
    lastTenth = tenth;
  }

  synchronized void end() {
    if (terminal && lastTenth < 10) {
      out.println();
    }
  }
}
