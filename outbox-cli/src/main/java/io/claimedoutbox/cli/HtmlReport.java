package io.claimedoutbox.cli;

import io.claimedoutbox.domain.ClaimTransitionOutcome;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** The comparison as one self-contained HTML page: inline CSS and SVG bar charts, no scripts, no network. */
final class HtmlReport {

  private static final String[] COLOURS = {"#2a9d8f", "#e9c46a", "#f4a261", "#e76f51", "#8d99ae"};

  private HtmlReport() {}

  static String render(RaceSettings settings, List<RaceResult> results) {
    StringBuilder page = new StringBuilder();
    page.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Claimed Outbox: backend comparison</title>")
        .append("<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem;color:#222}")
        .append("table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}")
        .append("th:first-child,td:first-child{text-align:left}.pass{color:#2a7d2a}.fail{color:#b00020}</style></head><body>")
        .append("<h1>Claimed Outbox: backend comparison</h1>")
        .append(String.format(Locale.ROOT, "<p>%d workers &times; %d handlers drain %,d entries with a %d ms lease;"
                + " %.0f%% of handler calls outlast the lease and %.0f%% fail.</p>", settings.workers(),
            settings.handlersPerWorker(), settings.entries(), settings.lease().toMillis(), settings.slowFraction() * 100,
            settings.failureFraction() * 100));
    page.append("<h2>Drain throughput (entries/s)</h2>").append(bars(results, RaceResult::entriesPerSecond, "%,.0f"));
    page.append("<h2>Transition latency p99 (ms)</h2>").append(bars(results, r -> r.transitionLatency().p99(), "%.2f"));
    page.append("<h2>Outcomes</h2>").append(stacked(results));
    page.append("<h2>Numbers</h2><table><tr><th></th>");
    results.forEach(r -> page.append("<th>").append(escape(r.backend())).append("</th>"));
    page.append("</tr>");
    for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
      page.append("<tr><td>").append(outcome.tagValue()).append("</td>");
      results.forEach(r -> page.append(String.format(Locale.ROOT, "<td>%,d</td>", r.total(outcome))));
      page.append("</tr>");
    }
    page.append("<tr><td>attribution check</td>");
    results.forEach(r -> page.append(r.passed() ? "<td class=\"pass\">passed</td>"
        : "<td class=\"fail\">failed (" + r.violations().size() + ")</td>"));
    page.append("</tr></table></body></html>\n");
    return page.toString();
  }

  private static String bars(List<RaceResult> results, ToDoubleFunction<RaceResult> value, String format) {
    double max = results.stream().mapToDouble(value).max().orElse(1);
    int height = 30 * results.size() + 10;
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg width=\"760\" height=\"%d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">", height));
    for (int i = 0; i < results.size(); i++) {
      RaceResult result = results.get(i);
      double width = max <= 0 ? 0 : 420 * value.applyAsDouble(result) / max;
      int y = 5 + 30 * i;
      svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + 16,
              escape(result.shortBackend())))
          .append(String.format(Locale.ROOT, "<rect x=\"250\" y=\"%d\" width=\"%.1f\" height=\"22\" fill=\"%s\"/>",
              y, width, COLOURS[i % COLOURS.length]))
          .append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"12\">" + format + "</text>",
              255 + width, y + 16, value.applyAsDouble(result)));
    }
    return svg.append("</svg>").toString();
  }

  private static String stacked(List<RaceResult> results) {
    int height = 30 * results.size() + 40;
    StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
        "<svg width=\"760\" height=\"%d\" role=\"img\" xmlns=\"http://www.w3.org/2000/svg\">", height));
    for (int i = 0; i < results.size(); i++) {
      RaceResult result = results.get(i);
      double total = 0;
      for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
        total += result.total(outcome);
      }
      int y = 5 + 30 * i;
      svg.append(String.format(Locale.ROOT, "<text x=\"0\" y=\"%d\" font-size=\"12\">%s</text>", y + 16,
          escape(result.shortBackend())));
      double x = 250;
      for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
        double width = total == 0 ? 0 : 480 * result.total(outcome) / total;
        svg.append(String.format(Locale.ROOT,
            "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"22\" fill=\"%s\"><title>%s: %d</title></rect>",
            x, y, width, COLOURS[outcome.ordinal()], outcome.tagValue(), result.total(outcome)));
        x += width;
      }
    }
    int legendY = 5 + 30 * results.size() + 15;
    for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
      int x = 250 + 100 * outcome.ordinal();
      svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
          + "<text x=\"%d\" y=\"%d\" font-size=\"11\">%s</text>", x, legendY - 9, COLOURS[outcome.ordinal()], x + 14,
          legendY, outcome.tagValue()));
    }
    return svg.append("</svg>").toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
