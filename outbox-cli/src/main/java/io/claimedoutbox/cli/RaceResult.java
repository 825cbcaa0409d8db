package io.claimedoutbox.cli;

import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.TransitionKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What one race run observed. */
record RaceResult(
    String backend,
    RaceSettings settings,
    Map<TransitionKind, Map<ClaimTransitionOutcome, Integer>> outcomes,
    List<String> violations,
    long delivered,
    long deadLettered,
    int claims,
    long reclaims,
    Duration elapsed,
    LatencySummary transitionLatency,
    boolean finished) {

  /** @return the backend's name without the parenthesised detail, for narrow tables and charts */
  String shortBackend() {
    int paren = backend.indexOf(" (");
    return paren > 0 ? backend.substring(0, paren) : backend;
  }

  boolean passed() {
    return finished && violations.isEmpty();
  }

  double entriesPerSecond() {
    return settings.entries() / Math.max(0.001, elapsed.toNanos() / 1e9);
  }

  int total(ClaimTransitionOutcome outcome) {
    return outcomes.values().stream().mapToInt(row -> row.getOrDefault(outcome, 0)).sum();
  }
}
