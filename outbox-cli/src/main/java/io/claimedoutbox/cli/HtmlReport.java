package io.claimedoutbox.cli;

import io.claimedoutbox.domain.ClaimTransitionOutcome;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The comparison as one self-contained HTML page: inline CSS and SVG bar charts, no scripts, no
 * network. Colour means one thing only: an outcome. Backends are rows, named on the left, in one
 * neutral colour; the non-applied outcomes get a chart of their own on their own scale, because
 * beside the applied ones they would be slivers.
 */
final class HtmlReport {

  private static final String BAR = "#5b7083";
  private static final String[] OUTCOME_COLOURS = {"#2a9d8f", "#e9c46a", "#f4a261", "#e76f51", "#8d99ae"};
  private static final int LABEL_WIDTH = 250;
  private static final int ROW = 30;

  private HtmlReport() {}

  static String render(RaceSettings settings, List<RaceResult> results, Instant generatedAt) {
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Claimed Outbox: backend comparison</title>")
        .append("<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem;color:#222}")
        .append("table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}")
        .append("th:first-child,td:first-child{text-align:left}.pass{color:#2a7d2a}.fail{color:#b00020}")
        .append(".meta{color:#555;font-size:.9rem}</style></head><body>")
        .append("<h1>Claimed Outbox: backend comparison</h1>")
        .append("<p class=\"meta\">").append(escape(ProgramVersion.text())).append(" &middot; generated ")
        .append(generatedAt.truncatedTo(ChronoUnit.SECONDS)).append(" &middot; Java ")
        .append(escape(System.getProperty("java.version"))).append("</p>")
        .append(String.format(Locale.ROOT, "<p>%d workers &times; %d handlers drain %,d entries with a %d ms lease;"
                + " %.0f%% of handler calls outlast the lease and %.0f%% fail.</p>", settings.workers(),
            settings.handlersPerWorker(), settings.entries(), settings.lease().toMillis(), settings.slowFraction() * 100,
            settings.failureFraction() * 100));
    page.append("<h2>Drain throughput (entries/s)</h2>").append(bars(results, RaceResult::entriesPerSecond, "%,.0f"));
    page.append("<h2>Transition latency p99 (ms)</h2>").append(bars(results, r -> r.transitionLatency().p99(), "%.2f"));
    page.append("<h2>Applied share of all transition attempts</h2>")
        .append(bars(results, r -> 100.0 * r.total(ClaimTransitionOutcome.APPLIED) / Math.max(1, attempts(r)), "%.2f%%"));
    page.append("<h2>Attempts that did not apply, by outcome</h2>").append(notApplied(results));
    page.append(numbers(results));
    return page.append("</body></html>\n").toString();
  }

  private static int attempts(RaceResult result) {
    return Arrays.stream(ClaimTransitionOutcome.values()).mapToInt(result::total).sum();
  }

  private static String bars(List<RaceResult> results, ToDoubleFunction<RaceResult> value, String format) {
    double max = results.stream().mapToDouble(value).max().orElse(1);
    StringBuilder svg = svg(ROW * results.size() + 10);
    for (int i = 0; i < results.size(); i++) {
      RaceResult result = results.get(i);
      double width = max <= 0 ? 0 : 420 * value.applyAsDouble(result) / max;
      int y = 5 + ROW * i;
      svg.append(label(result.shortBackend(), y))
          .append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"22\" fill=\"%s\"/>",
              LABEL_WIDTH, y, width, BAR))
          .append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">" + format + "</text>",
              LABEL_WIDTH + 5 + width, y + 16, value.applyAsDouble(result)));
    }
    return svg.append("</svg>").toString();
  }

  /** One group per backend, one bar per non-applied outcome, all on one scale of their own. */
  private static String notApplied(List<RaceResult> results) {
    List<ClaimTransitionOutcome> outcomes = Arrays.stream(ClaimTransitionOutcome.values())
        .filter(outcome -> outcome != ClaimTransitionOutcome.APPLIED).toList();
    int max = results.stream().flatMapToInt(r -> outcomes.stream().mapToInt(r::total)).max().orElse(0);
    if (max == 0) {
      return "<p>Every attempt applied.</p>";
    }
    int groupHeight = 14 * outcomes.size() + 12;
    StringBuilder svg = svg(groupHeight * results.size() + 30);
    for (int i = 0; i < results.size(); i++) {
      RaceResult result = results.get(i);
      int top = 5 + groupHeight * i;
      svg.append(label(result.shortBackend(), top + 4));
      for (int j = 0; j < outcomes.size(); j++) {
        ClaimTransitionOutcome outcome = outcomes.get(j);
        double width = 420.0 * result.total(outcome) / max;
        int y = top + 14 * j;
        svg.append(String.format(Locale.ROOT,
                "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"12\" fill=\"%s\"><title>%s: %,d</title></rect>",
                LABEL_WIDTH, y, Math.max(width, result.total(outcome) > 0 ? 1 : 0), colour(outcome), outcome.tagValue(),
                result.total(outcome)))
            .append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\">%,d</text>",
                LABEL_WIDTH + 5 + width, y + 10, result.total(outcome)));
      }
    }
    return svg.append(legend(outcomes, groupHeight * results.size() + 20)).append("</svg>").toString();
  }

  /** Swatches placed one after another by the length of their labels, so none overlap. */
  private static String legend(List<ClaimTransitionOutcome> outcomes, int y) {
    StringBuilder legend = new StringBuilder();
    int x = LABEL_WIDTH;
    for (ClaimTransitionOutcome outcome : outcomes) {
      legend.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
          + "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", x, y - 9, colour(outcome), x + 14, y, outcome.tagValue()));
      x += 14 + 7 * outcome.tagValue().length() + 18;
    }
    return legend.toString();
  }

  private static String numbers(List<RaceResult> results) {
    StringBuilder table = new StringBuilder("<h2>Numbers</h2><table><tr><th></th>");
    results.forEach(r -> table.append("<th>").append(escape(r.backend())).append("</th>"));
    table.append("</tr>");
    for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
      row(table, outcome.tagValue(), results, r -> String.format(Locale.ROOT, "%,d", r.total(outcome)));
    }
    row(table, "entries/s", results, r -> String.format(Locale.ROOT, "%,.0f", r.entriesPerSecond()));
    row(table, "transition p50 (ms)", results, r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().p50()));
    row(table, "transition p95 (ms)", results, r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().p95()));
    row(table, "transition p99 (ms)", results, r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().p99()));
    row(table, "transition max (ms)", results, r -> String.format(Locale.ROOT, "%.2f", r.transitionLatency().max()));
    table.append("<tr><td>attribution check</td>");
    results.forEach(r -> table.append(r.passed() ? "<td class=\"pass\">passed</td>"
        : "<td class=\"fail\">failed (" + r.violations().size() + ")</td>"));
    return table.append("</tr></table>").toString();
  }

  private static void row(StringBuilder table, String name, List<RaceResult> results,
      java.util.function.Function<RaceResult, String> cell) {
    table.append("<tr><td>").append(escape(name)).append("</td>");
    results.forEach(r -> table.append("<td>").append(cell.apply(r)).append("</td>"));
    table.append("</tr>");
  }

  private static StringBuilder svg(int height) {
    return new StringBuilder(String.format(Locale.ROOT,
        "<svg width=\"760\" height=\"%d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">", height));
  }

  private static String label(String text, int y) {
    return String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + 16, escape(text));
  }

  private static String colour(ClaimTransitionOutcome outcome) {
    return OUTCOME_COLOURS[outcome.ordinal() % OUTCOME_COLOURS.length];
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
