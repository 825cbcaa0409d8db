package io.claimedoutbox.port.spi;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("CoalescingRunner: intervals are checked when it is made")
class CoalescingRunnerTest {

  private static final Runnable NOTHING = () -> { };

  @Test
  @DisplayName("a negative minInterval is refused, naming it")
  void negativeMinInterval() {
    assertThatThrownBy(() -> new CoalescingRunner(NOTHING, "t", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("minInterval");
  }

  @Test
  @DisplayName("a maxInterval below minInterval is refused, naming it")
  void maxIntervalBelowMin() {
    assertThatThrownBy(() -> new CoalescingRunner(NOTHING, "t", Duration.ofMillis(5), Duration.ofMillis(4)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxInterval");
  }

  @Test
  @DisplayName("a missing maxInterval is refused, naming it")
  void nullMaxInterval() {
    assertThatThrownBy(() -> new CoalescingRunner(NOTHING, "t", Duration.ofMillis(5), null))
        .hasMessageContaining("maxInterval");
  }
}
