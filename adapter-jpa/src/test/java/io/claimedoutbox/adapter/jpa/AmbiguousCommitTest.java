package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.CommitFaultDataSource.Fault;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import jakarta.persistence.EntityManagerFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A commit whose acknowledgement is lost is resolved from the write stamp, on real PostgreSQL:
 * never guessed as applied.
 */
@DisplayName("JPA adapter: ambiguous commits are resolved by write stamp (PostgreSQL)")
class AmbiguousCommitTest {

  private static final WorkerId WORKER = WorkerId.of("worker-1");

  private final JpaTestKit fixture = JpaFixtures.of(TestDatabase.POSTGRESQL);
  private CommitFaultDataSource faults;
  private EntityManagerFactory factory;
  private JpaOutboxStore store;
  private JpaOutboxStore observer;
  private Claim claim;

  @BeforeEach
  void claimOneEntry() {
    fixture.fixture().clean();
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    faults = new CommitFaultDataSource(fixture.dataSource());
    factory = JpaOutbox.entityManagerFactory(faults, Map.of());
    store = JpaOutboxStore.builder(factory).clock(clock).build();
    observer = JpaOutboxStore.builder(fixture.entityManagerFactory()).clock(clock).build();
    store.append(OutboxMessage.of("orders", new byte[] {1, 2, 3}));
    claim = store.claimDue(WORKER, 1, Duration.ofSeconds(30)).get(0);
  }

  @AfterEach
  void close() {
    factory.close();
  }

  @Test
  @DisplayName("the write landed but its acknowledgement was lost: APPLIED, decided by the stored stamp")
  void landedCommitIsApplied() {
    faults.failNextCommit(Fault.ACK_LOST_AFTER_COMMIT, false);

    ClaimTransitionResult result = store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(result.outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
    OutboxEntry stored = observer.find(claim.entryId()).orElseThrow();
    assertThat(result.entry()).isEqualTo(stored);
    assertThat(stored.status()).isEqualTo(EntryStatus.DELIVERED);
    assertThat(stored.revision()).isEqualTo(claim.snapshot().revision() + 1);
  }

  @Test
  @DisplayName("the connection dropped before the write: the write is sent again on a fresh connection and applied once")
  void droppedCommitIsRepeatedOnAFreshConnection() {
    faults.failNextCommit(Fault.DROPPED_BEFORE_COMMIT, false);

    ClaimTransitionResult result = store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());

    assertThat(result.isApplied()).isTrue();
    OutboxEntry stored = observer.find(claim.entryId()).orElseThrow();
    assertThat(stored.lastWriteStamp()).isEqualTo(result.entry().lastWriteStamp());
    assertThat(stored.revision()).as("written once").isEqualTo(claim.snapshot().revision() + 1);
  }

  @Test
  @DisplayName("the write landed and the store is unreachable afterwards: outcome unknown, never APPLIED")
  void landedCommitWithUnreachableStoreIsUnknown() {
    faults.failNextCommit(Fault.ACK_LOST_AFTER_COMMIT, true);

    assertThatThrownBy(() -> store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()))
        .isInstanceOfSatisfying(TransitionOutcomeUnknownException.class, unknown -> {
          assertThat(unknown.claim()).isEqualTo(claim);
          assertThat(unknown.transition()).isEqualTo(TransitionKind.DELIVERED);
          faults.reachableAgain();
          assertThat(observer.find(claim.entryId()).orElseThrow().lastWriteStamp())
              .contains(unknown.writeStamp());
        })
        .hasMessageContaining("is unknown");
  }

  @Test
  @DisplayName("the write never landed and the store is unreachable afterwards: outcome unknown")
  void droppedCommitWithUnreachableStoreIsUnknown() {
    faults.failNextCommit(Fault.DROPPED_BEFORE_COMMIT, true);

    assertThatThrownBy(() -> store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()))
        .isInstanceOf(TransitionOutcomeUnknownException.class);
    faults.reachableAgain();
    assertThat(observer.find(claim.entryId())).contains(claim.snapshot());
  }
}
