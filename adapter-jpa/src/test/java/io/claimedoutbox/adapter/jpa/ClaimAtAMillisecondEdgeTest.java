package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("JPA adapter: a claim a fraction of a microsecond before an entry is due neither claims it nor fails")
class ClaimAtAMillisecondEdgeTest {

  private static final Instant DUE = Instant.parse("2030-01-01T00:00:00.001Z");
  private static final WorkerId WORKER = WorkerId.of("edge");
  private static final Duration LEASE = Duration.ofSeconds(30);

  @ParameterizedTest(name = "{0}")
  @EnumSource(TestDatabase.class)
  @DisplayName("0.4 µs before the due millisecond: nothing claimed, no error; at it: claimed")
  void claimJustBeforeTheDueMillisecond(TestDatabase database) {
    JpaTestKit kit = JpaFixtures.of(database);
    kit.fixture().clean();
    storeAt(kit, DUE).appendAll(List.of(OutboxMessage.of("t", new byte[] {1})));

    // PostgreSQL rounds a bound instant to the microsecond: 0.0009996 s became 0.001 s, the due query
    // took the entry and the domain, comparing at the stored precision, refused to claim it
    assertThat(storeAt(kit, DUE.minusNanos(400)).claimDue(WORKER, 10, LEASE)).as("just before it is due").isEmpty();
    assertThat(storeAt(kit, DUE).claimDue(WORKER, 10, LEASE)).as("when it is due").hasSize(1);
  }

  private static JpaOutboxStore storeAt(JpaTestKit kit, Instant now) {
    return kit.storeBuilder().clock(Clock.fixed(now, ZoneOffset.UTC)).build();
  }
}
