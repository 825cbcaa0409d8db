package io.claimedoutbox.benchmarks.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One line about the machine the run was on: cores, Java, load when the report was written. */
final class MachineLine {

  private MachineLine() {}

  static String describe() {
    String load;
    try {
      load = Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException unreadable) {
      load = "unknown";
    }
    return "Machine: " + Runtime.getRuntime().availableProcessors() + " cores, Java "
        + System.getProperty("java.version") + ", load average at the end " + load + ".";
  }
}
