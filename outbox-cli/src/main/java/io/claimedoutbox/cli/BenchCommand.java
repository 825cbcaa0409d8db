package io.claimedoutbox.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox bench}: speed, as ratios against each backend's raw compare-and-set measured in the same run. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = {"Measure single store calls on each backend: transitions and claims per second, next to a raw CAS.",
        "Each rate stands next to the backend's raw compare-and-set (a plain JDBC UPDATE, an EVALSHA of a trivial"
            + " script, a plain findOneAndUpdate) measured in the same run, so the result is a ratio; and claim latency"
            + " for each backlog size.",
        "With --output, write the results as Markdown with a description of the machine."})
final class BenchCommand implements Callable<Integer> {

  @Option(names = {"-b", "--backend"}, split = ",", defaultValue = "h2:mem",
      description = "Backends to measure (repeat or separate with commas): " + Backends.SUPPORTED + " (default: ${DEFAULT-VALUE}).")
  List<String> backends;

  @Option(names = "--operations", defaultValue = "2000", description = "Operations per rate measurement (default: ${DEFAULT-VALUE}).")
  int operations;

  @Option(names = "--backlogs", split = ",", defaultValue = "10000,1000000",
      description = "Backlog sizes for the claim-latency measurement (default: ${DEFAULT-VALUE}).")
  List<Integer> backlogs;

  @Option(names = "--samples", defaultValue = "200", description = "Claims timed per backlog (default: ${DEFAULT-VALUE}).")
  int samples;

  @Option(names = "--output", description = "Also write the results as Markdown to this file, e.g. docs/store-benchmarks.md.")
  Path output;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() throws IOException {
    if (operations < 100 || samples < 10 || backlogs.stream().anyMatch(size -> size < 1)) {
      throw new UsageException("--operations must be at least 100, --samples at least 10, backlogs positive");
    }
    Backends.checkWritable(output, "--output");
    backends.forEach(Backends::checkAddress);
    List<BenchmarkResult> results = new ArrayList<>();
    for (String url : backends) {
      results.add(Benchmarks.run(url, operations, backlogs, samples, System.err));
    }
    String markdown = BenchmarkReport.markdown(results, operations, samples);
    System.out.print(BenchmarkReport.plain(markdown));
    if (output != null) {
      Files.writeString(output, BenchmarkReport.document(markdown), StandardCharsets.UTF_8);
      System.out.printf(Locale.ROOT, "Benchmark results written to %s%n", output.toAbsolutePath());
    }
    return 0;
  }
}
