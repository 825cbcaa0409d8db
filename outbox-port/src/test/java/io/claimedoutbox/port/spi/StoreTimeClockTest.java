package io.claimedoutbox.port.spi;

import io.claimedoutbox.port.OutboxStoreException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Store time: the server's answer, counted forward with the monotonic clock")
class StoreTimeClockTest {

  private static final Instant SERVER = Instant.parse("2020-06-01T12:00:00Z");

  @Test
  void readsTheServersTimeNotThisMachines() {
    StoreTimeClock clock = StoreTimeClock.of(() -> SERVER, Duration.ofHours(1));
    Instant now = clock.instant();
    assertThat(now).isAfterOrEqualTo(SERVER).isBefore(SERVER.plusSeconds(60));
    assertThat(clock.instant()).as("never runs backwards").isAfterOrEqualTo(now);
  }

  @Test
  void asksAgainOnlyAfterTheRefreshAndKeepsCountingWhenTheServerIsDown() {
    AtomicInteger asked = new AtomicInteger();
    StoreTimeClock clock = StoreTimeClock.of(() -> {
      if (asked.incrementAndGet() > 1) {
        throw new OutboxStoreException("down");
      }
      return SERVER;
    }, Duration.ofNanos(1));
    Instant first = clock.instant();
    Instant second = clock.instant();
    assertThat(asked.get()).as("asked again once the refresh passed").isGreaterThan(1);
    assertThat(second).isAfterOrEqualTo(first).isBefore(SERVER.plusSeconds(60));
  }

  @Test
  void aServerThatCannotAnswerAtFirstFailsTheBuild() {
    assertThatThrownBy(() -> StoreTimeClock.of(() -> {
      throw new OutboxStoreException("refused");
    }, Duration.ofSeconds(10))).isInstanceOf(OutboxStoreException.class);
    assertThatThrownBy(() -> StoreTimeClock.of(() -> SERVER, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refresh");
  }
}
