package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Claim-ahead follows the handlers' rate: deep for fast handlers, shallow for slow ones")
class ClaimAheadTest {

  private final AtomicLong nanos = new AtomicLong();
  private final ClaimAhead ahead = new ClaimAhead(settings(Duration.ofSeconds(30)), nanos::get);

  private static DrainSettings settings(Duration lease) {
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    OutboxDrain drain = OutboxDrain.builder(new InMemoryOutboxStore(clock, TransitionWriteHook.NONE), message -> { })
        .workerId(WorkerId.of("w")).concurrency(4).bufferSize(1000).claimAhead(Duration.ofSeconds(1)).lease(lease)
        .build();
    return drain.settings();
  }

  @Test
  void neverMoreThanAQuarterOfTheLeaseOfWork() {
    ClaimAhead shortLease = new ClaimAhead(settings(Duration.ofMillis(400)), nanos::get);
    long finished = 0;
    for (int poll = 1; poll <= 10; poll++) {
      nanos.addAndGet(Duration.ofMillis(10).toNanos());
      finished += 20;
      shortLease.bufferNow(finished);
    }
    assertThat(shortLease.bufferNow(finished)).as("2,000 entries a second, 100 ms ahead").isEqualTo(200);
  }

  @Test
  void startsAtTheConcurrency() {
    assertThat(ahead.bufferNow(0)).isEqualTo(4);
  }

  @Test
  void slowHandlersKeepAShallowBuffer() {
    long finished = 0;
    for (int second = 1; second <= 10; second++) {
      nanos.addAndGet(Duration.ofSeconds(1).toNanos());
      finished += 20;
      ahead.bufferNow(finished);
    }
    assertThat(ahead.bufferNow(finished)).as("20 entries a second, one second ahead").isEqualTo(20);
  }

  @Test
  void fastHandlersGetTheWholeBuffer() {
    long finished = 0;
    for (int poll = 1; poll <= 10; poll++) {
      nanos.addAndGet(Duration.ofMillis(10).toNanos());
      finished += 300;
      ahead.bufferNow(finished);
    }
    assertThat(ahead.bufferNow(finished)).as("30,000 entries a second, capped").isEqualTo(1000);
  }
}
