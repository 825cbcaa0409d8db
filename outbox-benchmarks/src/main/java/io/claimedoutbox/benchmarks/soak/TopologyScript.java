package io.claimedoutbox.benchmarks.soak;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the repository's fixture scripts ({@code .ci/topology}, {@code .ci/pgbouncer}) from the folder the
 * soak was started in, echoing their lines and noting when each appeared.
 */
final class TopologyScript {

  private final Path folder;

  private TopologyScript(Path folder) {
    this.folder = folder;
  }

  /** @return the scripts of the repository the soak runs in (the working folder or a parent) */
  static TopologyScript find() {
    Path at = Path.of("").toAbsolutePath();
    while (at != null && !Files.exists(at.resolve(".ci/topology"))) {
      at = at.getParent();
    }
    if (at == null) {
      throw new IllegalStateException("the topology soak runs from the repository (it calls .ci/topology);"
          + " start it from the repository's folder");
    }
    return new TopologyScript(at.resolve(".ci"));
  }

  /** A finished script: its lines, when each appeared ({@link System#nanoTime()}), and when it ended. */
  record Run(List<String> lines, List<Long> times, long ended) {

    /** @return when the first line starting with {@code prefix} appeared; the end when none did */
    long at(String prefix) {
      for (int i = 0; i < lines.size(); i++) {
        if (lines.get(i).startsWith(prefix)) {
          return times.get(i);
        }
      }
      return ended;
    }

    /** @return the first number in the first line starting with {@code prefix}; -1 when there is none */
    long number(String prefix) {
      return lines.stream().filter(line -> line.startsWith(prefix)).findFirst()
          .map(line -> line.replaceAll("^\\D*(\\d+).*$", "$1")).filter(digits -> digits.matches("\\d+"))
          .map(Long::parseLong).orElse(-1L);
    }
  }

  /** Runs {@code script} with {@code args}, failing when it fails. */
  Run run(String script, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", folder.resolve(script).toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = new ArrayList<>();
    List<Long> times = new ArrayList<>();
    try (BufferedReader output = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        times.add(System.nanoTime());
        lines.add(line);
        System.out.println("  " + script + ": " + line);
      }
    }
    int exit = process.waitFor();
    if (exit != 0) {
      throw new IOException(script + " " + String.join(" ", args) + " exited " + exit + ": " + lines);
    }
    return new Run(lines, times, System.nanoTime());
  }
}
