package io.claimedoutbox.cli;

import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.TransitionKind;
import java.util.Locale;
import java.util.Map;

/** The race's text report: outcomes per transition, the attribution check, speed. */
final class RaceReport {

  private RaceReport() {}

  static String render(RaceResult result) {
    StringBuilder out = new StringBuilder();
    String nl = System.lineSeparator();
    out.append("Outcomes per transition (outbox.claim_transition_attempts)").append(nl);
    out.append(outcomeTable(result).render()).append(nl);
    if (result.passed()) {
      out.append(String.format(Locale.ROOT, "Attribution check: PASSED — %,d entries appended, %,d delivered,"
              + " %,d dead-lettered; every terminal entry attributed to exactly one APPLIED result, no two live"
              + " claims, no write counted twice, nothing lost.%n", result.settings().entries(), result.delivered(),
          result.deadLettered()));
    } else {
      out.append("Attribution check: FAILED — ").append(result.violations().size()).append(" violation(s):").append(nl);
      result.violations().stream().limit(20).forEach(violation -> out.append("  ").append(violation).append(nl));
    }
    out.append(String.format(Locale.ROOT, "Claims: %,d handed out, %,d of them re-claims of expired leases%n",
        result.claims(), result.reclaims()));
    out.append(String.format(Locale.ROOT, "Drain throughput: %,.1f entries/s (%,d entries finished in %.2f s,"
            + " measured from the drains' start)%n",
        result.entriesPerSecond(), result.settings().entries(), result.elapsed().toNanos() / 1e9));
    LatencySummary latency = result.transitionLatency();
    out.append(String.format(Locale.ROOT, "Transition latency: p50 %.2f ms, p95 %.2f ms, p99 %.2f ms, max %.2f ms"
        + " (%,d calls)%n", latency.p50(), latency.p95(), latency.p99(), latency.max(), latency.samples()));
    return out.toString();
  }

  static TextTable outcomeTable(RaceResult result) {
    String[] header = new String[ClaimTransitionOutcome.values().length + 2];
    header[0] = "transition";
    for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
      header[outcome.ordinal() + 1] = outcome.tagValue();
    }
    header[header.length - 1] = "total";
    TextTable table = new TextTable(header);
    for (TransitionKind kind : TransitionKind.values()) {
      Map<ClaimTransitionOutcome, Integer> row = result.outcomes().getOrDefault(kind, Map.of());
      String[] cells = new String[header.length];
      cells[0] = kind.tagValue();
      int total = 0;
      for (ClaimTransitionOutcome outcome : ClaimTransitionOutcome.values()) {
        int count = row.getOrDefault(outcome, 0);
        total += count;
        cells[outcome.ordinal() + 1] = String.format(Locale.ROOT, "%,d", count);
      }
      cells[cells.length - 1] = String.format(Locale.ROOT, "%,d", total);
      table.row(cells);
    }
    return table;
  }
}
