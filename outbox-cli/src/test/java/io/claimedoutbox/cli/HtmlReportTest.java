package io.claimedoutbox.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.TransitionKind;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The HTML comparison: rare outcomes visible, one meaning per colour, no overlapping legend, date and version")
class HtmlReportTest {

  private static final RaceSettings SETTINGS =
      new RaceSettings(4, 4, 10_000, Duration.ofMillis(500), 0.02, 0.01, Duration.ofMinutes(1));

  private static RaceResult result(String backend, int applied, int stale, int lost) {
    Map<ClaimTransitionOutcome, Integer> delivered = Map.of(ClaimTransitionOutcome.APPLIED, applied,
        ClaimTransitionOutcome.STALE_CLAIM, stale, ClaimTransitionOutcome.CONCURRENCY_LOST, lost);
    return new RaceResult(backend + " (detail)", SETTINGS, Map.of(TransitionKind.DELIVERED, delivered), List.of(),
        applied, 0, applied, 0, Duration.ofSeconds(2), new LatencySummary(100, 1.5, 3.25, 7.75, 12.5), true);
  }

  private final String html = HtmlReport.render(SETTINGS,
      List.of(result("PostgreSQL", 10_000, 2, 0), result("Redis", 10_000, 40, 3)), Instant.parse("2026-11-30T12:00:00Z"));

  @Test
  void rareOutcomesGetAScaleOfTheirOwn() {
    assertThat(html).contains("Attempts that did not apply");
    Matcher staleBars = Pattern.compile("<rect x=\"250\" y=\"\\d+\" width=\"([0-9.]+)\" height=\"12\" fill=\"[^\"]+\">"
        + "<title>stale_claim: ([0-9,]+)</title>").matcher(html);
    List<Double> widths = new ArrayList<>();
    while (staleBars.find()) {
      widths.add(Double.parseDouble(staleBars.group(1)));
    }
    assertThat(widths).as("2 and 40 stale claims among 10,000 applied").hasSize(2);
    assertThat(widths.get(1)).as("the largest rare count fills the scale").isEqualTo(420.0);
    assertThat(widths.get(0)).as("2 of 40 is visible, not a sliver of 10,000").isEqualTo(21.0);
  }

  @Test
  void backendBarsShareOneColourAndOutcomesHaveTheirs() {
    Matcher backendBars = Pattern.compile("height=\"22\" fill=\"([^\"]+)\"").matcher(html);
    List<String> colours = new ArrayList<>();
    while (backendBars.find()) {
      colours.add(backendBars.group(1));
    }
    assertThat(colours).isNotEmpty().containsOnly("#5b7083");
  }

  @Test
  void legendLabelsDoNotOverlap() {
    Matcher swatches = Pattern.compile("<rect x=\"(\\d+)\" y=\"\\d+\" width=\"10\" height=\"10\" fill=\"[^\"]+\"/>"
        + "<text x=\"\\d+\" y=\"\\d+\" font-size=\"11\">([a-z_]+)</text>").matcher(html);
    int end = 0;
    int count = 0;
    while (swatches.find()) {
      int x = Integer.parseInt(swatches.group(1));
      assertThat(x).as("swatch of %s starts after the previous label", swatches.group(2)).isGreaterThanOrEqualTo(end);
      end = x + 14 + 7 * swatches.group(2).length();
      count++;
    }
    assertThat(count).as("one swatch per non-applied outcome").isEqualTo(ClaimTransitionOutcome.values().length - 1);
  }

  @Test
  void pageSaysWhenAndWhichVersionAndEveryPercentile() {
    assertThat(html).contains("2026-11-30T12:00:00Z").contains("Claimed Outbox ")
        .contains("transition p50 (ms)</td><td>1.50").contains("transition p95 (ms)</td><td>3.25")
        .contains("transition max (ms)</td><td>12.50");
  }
}
