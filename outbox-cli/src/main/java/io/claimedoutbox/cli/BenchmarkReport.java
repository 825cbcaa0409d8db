package io.claimedoutbox.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Benchmark results as Markdown tables, and the page around them. */
final class BenchmarkReport {

  private BenchmarkReport() {}

  static String markdown(List<BenchmarkResult> results, int operations, int samples) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "### Rates (single thread, %,d operations each)%n%n", operations));
    out.append("| backend | raw CAS/s | transitions/s | transition ÷ raw | claim+deliver entries/s | claim+deliver ÷ raw |\n");
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (BenchmarkResult result : results) {
      out.append(String.format(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f | %,.0f | %.2f |%n", result.backend(),
          result.rawOpsPerSecond(), result.transitionsPerSecond(), result.transitionRatio(),
          result.claimDeliverPerSecond(), result.claimDeliverRatio()));
    }
    out.append(String.format(Locale.ROOT, "%n### Claim latency by backlog (claimDue of one entry, %d samples)%n%n", samples));
    out.append("| backend | backlog | p50 ms | p95 ms | p99 ms | p50 ÷ raw CAS time |\n| --- | ---: | ---: | ---: | ---: | ---: |\n");
    for (BenchmarkResult result : results) {
      double rawMillis = 1000.0 / result.rawOpsPerSecond();
      for (Map.Entry<Integer, LatencySummary> row : result.claimLatencyByBacklog().entrySet()) {
        LatencySummary latency = row.getValue();
        out.append(String.format(Locale.ROOT, "| %s | %,d | %.3f | %.3f | %.3f | %.2f |%n", result.backend(), row.getKey(),
            latency.p50(), latency.p95(), latency.p99(), latency.p50() / rawMillis));
      }
    }
    return out.toString();
  }

  static String document(String tables) {
    return "# Store-call benchmarks (single thread)\n\n"
        + "Produced by `java -jar outbox-cli/target/outbox.jar bench --output docs/store-benchmarks.md …` on "
        + LocalDate.now(ZoneOffset.UTC) + ". Each rate stands next to the backend's raw compare-and-set measured"
        + " in the same run (a version-checked JDBC `UPDATE` in autocommit, an `EVALSHA` of a one-line script, a"
        + " plain `findOneAndUpdate`); compare the ratios, not the absolute numbers, across machines.\n\n"
        + "## Machine\n\n" + machine() + "\n## Results\n\n" + tables;
  }

  private static String machine() {
    Runtime runtime = Runtime.getRuntime();
    long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getTotalMemorySize();
    return String.format(Locale.ROOT, "- CPU: %s, %d cores%n- memory: %.1f GiB%n- OS: %s %s%n- Java: %s %s, max heap %.1f GiB%n",
        cpuModel(), runtime.availableProcessors(), memory / (1024.0 * 1024 * 1024), System.getProperty("os.name"),
        System.getProperty("os.version"), System.getProperty("java.vm.name"), System.getProperty("java.version"),
        runtime.maxMemory() / (1024.0 * 1024 * 1024));
  }

  private static String cpuModel() {
    try {
      return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).strip())
          .findFirst().orElse("unknown CPU");
    } catch (IOException | RuntimeException unreadable) {
      return "unknown CPU";
    }
  }

  /**
   * The Markdown report as a person reads it in a terminal: headings without their marks, each table
   * as aligned columns.
   */
  static String plain(String markdown) {
    StringBuilder out = new StringBuilder();
    TextTable table = null;
    for (String line : markdown.split("\n", -1)) {
      if (line.startsWith("|")) {
        String[] cells = java.util.Arrays.stream(line.substring(1, line.length() - 1).split("\\|"))
            .map(String::strip).toArray(String[]::new);
        if (table == null) {
          table = new TextTable(cells);
        } else if (!cells[0].startsWith("---")) {
          table.row(cells);
        }
        continue;
      }
      if (table != null) {
        out.append(table.render());
        table = null;
      }
      out.append(line.replaceFirst("^#+ ", "")).append('\n');
    }
    if (table != null) {
      out.append(table.render());
    }
    return out.toString().stripTrailing() + "\n";
  }
}
