package io.claimedoutbox.benchmarks.latency;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * When each entry's commit returned and when its handler started, as {@link System#nanoTime()}
 * (on Linux the system-wide monotonic clock, so a producer in another JVM on the same machine
 * reports on the same scale).
 */
final class Recording {

  private final AtomicLongArray committed;
  private final AtomicLongArray started;
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong handled = new AtomicLong();

  Recording(int capacity) {
    this.committed = new AtomicLongArray(capacity);
    this.started = new AtomicLongArray(capacity);
  }

  int capacity() {
    return committed.length();
  }

  void committed(long sequence, long nanos) {
    committed.set((int) sequence, nanos);
  }

  /** Called first thing by a handler; a second start of one entry counts as a duplicate. */
  void handlerStarted(long sequence) {
    long now = System.nanoTime();
    if (sequence < 0 || sequence >= started.length()) {
      return;
    }
    if (started.compareAndSet((int) sequence, 0, now)) {
      handled.incrementAndGet();
    } else {
      duplicates.incrementAndGet();
    }
  }

  /**
   * @return nanoseconds from the last commit to the last handler start among the first {@code
   *     produced} entries: how far the relay trails the producers when they stop (0 when nothing
   *     was handled or committed)
   */
  long trailAtEnd(int produced) {
    long lastCommit = 0;
    long lastStart = 0;
    for (int i = 0; i < produced; i++) {
      lastCommit = Math.max(lastCommit, committed.get(i));
      lastStart = Math.max(lastStart, started.get(i));
    }
    return lastCommit == 0 || lastStart == 0 ? 0 : Math.max(0, lastStart - lastCommit);
  }

  long handled() {
    return handled.get();
  }

  long duplicates() {
    return duplicates.get();
  }

  /** Waits until {@code expected} entries were handled or the deadline passed. */
  boolean awaitHandled(long expected, long deadlineNanos) throws InterruptedException {
    while (handled.get() < expected && System.nanoTime() < deadlineNanos) {
      Thread.sleep(5);
    }
    return handled.get() >= expected;
  }

  /** The latencies of the first {@code produced} entries, and how many of them were never handled. */
  Summary summarize(int produced) {
    long[] latencies = new long[produced];
    int count = 0;
    int lost = 0;
    for (int i = 0; i < produced; i++) {
      long commit = committed.get(i);
      long start = started.get(i);
      if (commit == 0) {
        continue;
      }
      if (start == 0) {
        lost++;
        continue;
      }
      // a handler may start a moment before the producer's commit call has returned to it
      latencies[count++] = Math.max(0, start - commit);
    }
    long[] sorted = Arrays.copyOf(latencies, count);
    Arrays.sort(sorted);
    return new Summary(produced, count, lost, duplicates.get(), percentile(sorted, 50), percentile(sorted, 95),
        percentile(sorted, 99), count == 0 ? 0 : sorted[count - 1]);
  }

  /** Writes one line per entry: its commit and its handler start ({@code 0} when none). */
  void trace(java.nio.file.Path file, int produced) throws java.io.IOException {
    try (java.io.PrintWriter out = new java.io.PrintWriter(java.nio.file.Files.newBufferedWriter(file))) {
      for (int i = 0; i < produced; i++) {
        out.println(committed.get(i) + " " + started.get(i));
      }
    }
  }

  private static long percentile(long[] sorted, int percent) {
    if (sorted.length == 0) {
      return 0;
    }
    int index = (int) Math.ceil(percent / 100.0 * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
  }

  /** Writes "sequence nanos" lines for the commits of the first {@code produced} entries. */
  void writeCommits(java.io.PrintWriter out, int produced) {
    for (int i = 0; i < produced; i++) {
      long commit = committed.get(i);
      if (commit != 0) {
        out.println(i + " " + commit);
      }
    }
  }

  /**
   * Reads what {@link #writeCommits} wrote, after a line {@code achieved <rate>}.
   *
   * @return the rate the producers achieved
   */
  double readCommits(java.nio.file.Path file) throws java.io.IOException {
    double achieved = 0;
    for (String line : java.nio.file.Files.readAllLines(file)) {
      int space = line.indexOf(' ');
      if (line.startsWith("achieved ")) {
        achieved = Double.parseDouble(line.substring(space + 1));
      } else {
        committed((long) Integer.parseInt(line.substring(0, space)), Long.parseLong(line.substring(space + 1)));
      }
    }
    return achieved;
  }

  /** Latencies in nanoseconds. */
  record Summary(int produced, int handled, int lost, long duplicates, long p50, long p95, long p99, long max) {}
}
