package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A slow due query that came back short is not repeated every minIdle")
class SlowDueQueryPacingTest {

  private static final Duration MIN_IDLE = Duration.ofMillis(50);
  private static final Duration MAX_IDLE = Duration.ofSeconds(5);

  private static long millis(long nanos) {
    return Duration.ofNanos(nanos).toMillis();
  }

  @Test
  void aQuickQueryKeepsTheWaitTheBatchAskedFor() {
    long query = Duration.ofMillis(8).toNanos();

    assertThat(millis(ClaimPoller.afterDueQuery(MIN_IDLE, query, MAX_IDLE))).isEqualTo(50);
  }

  @Test
  void aSlowQueryIsFollowedByFourTimesItsOwnDuration() {
    long query = Duration.ofMillis(200).toNanos();

    assertThat(millis(ClaimPoller.afterDueQuery(MIN_IDLE, query, MAX_IDLE)))
        .as("the poller's thread spends at most a fifth of its time in such queries").isEqualTo(800);
  }

  @Test
  void aFullBatchIsStillFollowedAtOnceHoweverLongItTook() {
    long query = Duration.ofMillis(200).toNanos();

    assertThat(ClaimPoller.afterDueQuery(Duration.ZERO, query, MAX_IDLE)).isZero();
  }

  @Test
  void theWaitNeverExceedsMaxIdle() {
    long query = Duration.ofSeconds(3).toNanos();

    assertThat(millis(ClaimPoller.afterDueQuery(MIN_IDLE, query, MAX_IDLE))).isEqualTo(5_000);
  }

  @Test
  void aLongerBackOffIsKept() {
    long query = Duration.ofMillis(100).toNanos();

    assertThat(millis(ClaimPoller.afterDueQuery(Duration.ofSeconds(2), query, MAX_IDLE))).isEqualTo(2_000);
  }
}
