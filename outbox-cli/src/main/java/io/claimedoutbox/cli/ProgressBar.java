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
    String pace = pace(done, seconds);
    if (terminal) {
      int filled = (int) ((long) WIDTH * done / total);
      out.printf(Locale.ROOT, "\r%s [%s%s] %3d%%  %,d/%,d finished  %.1f s%s   ", label, "#".repeat(filled),
          ".".repeat(WIDTH - filled), 100L * done / total, done, total, seconds, pace);
      if (done >= total) {
        out.println();
      }
    } else if (tenth != lastTenth) {
      out.printf(Locale.ROOT, "%s %3d%%  %,d/%,d finished  %.1f s%s%n", label, 10 * tenth, done, total, seconds, pace);
    }
    lastTenth = tenth;
  }

  /** The rate so far and, while unfinished, the time left at that rate. */
  private String pace(int done, double seconds) {
    if (done == 0 || seconds <= 0) {
      return "";
    }
    double rate = done / seconds;
    String rateText = String.format(Locale.ROOT, "  %,.0f/s", rate);
    return done >= total ? rateText : rateText + String.format(Locale.ROOT, "  ETA %.0f s", (total - done) / rate);
  }

  synchronized void end() {
    if (terminal && lastTenth < 10) {
      out.println();
    }
  }
}
