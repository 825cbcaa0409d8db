package io.claimedoutbox.cli;

import io.claimedoutbox.domain.ClaimTransitionOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox compare}: the race workload on several backends, side by side. */
@Command(name = "compare", mixinStandardHelpOptions = true,
    description = {"Run the same race workload on several backends, one after the other, and show them side by side.",
        "Every backend is opened (and the --html directory checked) before the first race starts.",
        "With --html, also write a self-contained HTML page with charts (no network needed to view it)."})
final class CompareCommand implements Callable<Integer> {

  @Option(names = {"-b", "--backend"}, required = true, split = ",",
      description = "Backends to compare (repeat or separate with commas): " + Backends.SUPPORTED + ".")
  List<String> backends;

  @Option(names = "--html", description = "Also write the comparison as an HTML page to this file.")
  Path html;

  @Mixin
  WorkloadOptions workload = new WorkloadOptions();

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() throws InterruptedException, IOException {
    RaceSettings settings = workload.settings();
    Backends.checkWritable(html, "--html");
    backends.forEach(Backends::checkAddress);
    List<BackendSession> sessions = new ArrayList<>();
    List<RaceResult> results = new ArrayList<>();
    try {
      for (String url : backends) {
        sessions.add(Backends.open(url, Clock.systemUTC()));
      }
      for (BackendSession session : sessions) {
        results.add(RaceCommand.run(session, settings, System.out, System.err));
      }
    } finally {
      for (BackendSession session : sessions) {
        session.close();
      }
    }
    System.out.println();
    System.out.print(table(results).render());
    if (html != null) {
      Files.writeString(html, HtmlReport.render(settings, results, Clock.systemUTC().instant()), StandardCharsets.UTF_8);
      System.out.println("HTML comparison written to " + html.toAbsolutePath());
    }
    return results.stream().allMatch(RaceResult::passed) ? 0 : 1;
  }

  static TextTable table(List<RaceResult> results) {
    String[] header = new String[results.size() + 1];
    header[0] = "";
    for (int i = 0; i < results.size(); i++) {
      header[i + 1] = results.get(i).shortBackend();
    }
    TextTable table = new TextTable(header);
    row(table, results, "drain entries/s", r -> String.format(Locale.ROOT, "%,.1f", r.entriesPerSecond()));
    row(table, results, "transition p50 ms", r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().p50()));
    row(table, results, "transition p95 ms", r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().p95()));
    row(table, results, "transition p99 ms", r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().p99()));
    for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
      row(table, results, outcome.tagValue(), r -> String.format(Locale.ROOT, "%,d", r.total(outcome)));
    }
    row(table, results, "re-claims", r -> String.format(Locale.ROOT, "%,d", r.reclaims()));
    row(table, results, "delivered / dead", r -> r.delivered() + " / " + r.deadLettered());
    row(table, results, "attribution", r -> r.passed() ? "PASSED" : "FAILED (" + r.violations().size() + ")");
    return table;
  }

  private static void row(TextTable table, List<RaceResult> results, String name, Function<RaceResult, String> cell) {
    String[] cells = new String[results.size() + 1];
    cells[0] = name;
    for (int i = 0; i < results.size(); i++) {
      cells[i + 1] = cell.apply(results.get(i));
    }
    table.row(cells);
  }
}
