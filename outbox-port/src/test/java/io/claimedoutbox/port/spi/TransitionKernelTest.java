package io.claimedoutbox.port.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TransitionKernel: what did not land is read again and decided, never guessed")
class TransitionKernelTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final WorkerId ALICE = WorkerId.of("alice");

  private final MapWrites storage = new MapWrites();
  private final TransitionKernel fromSnapshot = TransitionKernel.fromSnapshot(storage, CLOCK);

  private Claim claimed() {
    OutboxEntry entry = OutboxEntry.appended(EntryId.generate(), OutboxMessage.of("t", new byte[] {1}), NOW,
        WriteStamp.fresh()).claimedBy(ALICE, NOW, LEASE, WriteStamp.fresh());
    storage.entries.put(entry.id(), entry);
    return Claim.of(entry);
  }

  private List<ClaimTransition> deliveries(Claim... claims) {
    return List.of(claims).stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList();
  }

  /** The holder's own renewal, landed on the stored entry behind the kernel's back. */
  private OutboxEntry renew(Claim claim) {
    OutboxEntry stored = storage.entries.get(claim.entryId());
    OutboxEntry renewed = LeaseRenewal.of(LEASE).applyTo(stored, NOW, WriteStamp.fresh());
    storage.entries.put(renewed.id(), renewed);
    return renewed;
  }

  @Test
  void aHeldBatchIsOneWriteAndNoRead() {
    Claim a = claimed();
    Claim b = claimed();

    List<ClaimTransitionResult> results = fromSnapshot.transitionAll(deliveries(a, b));

    assertThat(results).extracting(ClaimTransitionResult::outcome)
        .containsExactly(ClaimTransitionOutcome.APPLIED, ClaimTransitionOutcome.APPLIED);
    assertThat(results.get(0).entry()).isEqualTo(storage.entries.get(a.entryId()));
    assertThat(storage.writeCalls).isEqualTo(1);
    assertThat(storage.reads).isZero();
  }

  @Test
  void theHoldersOwnRenewalIsWrittenOnTopOf() {
    Claim claim = claimed();
    OutboxEntry renewed = renew(claim);

    ClaimTransitionResult result = fromSnapshot.transition(claim, DeliveryReceipt.none());

    assertThat(result.outcome()).isEqualTo(ClaimTransitionOutcome.APPLIED);
    assertThat(result.entry().revision()).isEqualTo(renewed.revision() + 1);
    assertThat(storage.entries.get(claim.entryId())).isEqualTo(result.entry());
    assertThat(storage.writeCalls).isEqualTo(2);
  }

  @Test
  void anUnsaidAnswerIsAppliedOnlyWithItsStampInTheEntry() {
    Claim landed = claimed();
    Claim stale = claimed();
    storage.entries.put(stale.entryId(), storage.entries.get(stale.entryId())
        .claimedBy(WorkerId.of("bob"), NOW.plus(LEASE), LEASE, WriteStamp.fresh()));
    storage.sayNothing = true;

    List<ClaimTransitionResult> results = fromSnapshot.transitionAll(deliveries(landed, stale));

    assertThat(results).extracting(ClaimTransitionResult::outcome)
        .containsExactly(ClaimTransitionOutcome.APPLIED, ClaimTransitionOutcome.STALE_CLAIM);
    assertThat(results.get(0).entry().status()).isEqualTo(EntryStatus.DELIVERED);
  }

  @Test
  void aWaitGivenUpOnIsUnknownForEveryElementWithItsStampAndReadsNothing() {
    Claim a = claimed();
    Claim b = claimed();
    storage.beforeWrite = writes -> {
      throw new WriteStillRunningException("read timed out", new RuntimeException("timeout"));
    };

    assertThatThrownBy(() -> fromSnapshot.transitionAll(deliveries(a, b)))
        .isInstanceOfSatisfying(TransitionOutcomeUnknownException.class, unknown -> {
          assertThat(unknown.sentWriteStamp(a.entryId())).isPresent();
          assertThat(unknown.sentWriteStamp(b.entryId())).isPresent();
        });
    assertThat(storage.reads).isZero();
  }

  @Test
  void aBatchWhoseReadFailsNamesTheStampsItDidNotHearAbout() {
    Claim a = claimed();
    Claim b = claimed();
    storage.sayNothing = true;
    storage.failReads = true;

    assertThatThrownBy(() -> fromSnapshot.transitionAll(deliveries(a, b)))
        .isInstanceOfSatisfying(TransitionOutcomeUnknownException.class, unknown -> {
          assertThat(unknown.sentWriteStamp(a.entryId()))
              .isEqualTo(storage.entries.get(a.entryId()).lastWriteStamp());
          assertThat(unknown.sentWriteStamp(b.entryId()))
              .isEqualTo(storage.entries.get(b.entryId()).lastWriteStamp());
        });
  }

  @Test
  void aHolderRenewingBeforeEveryWriteFailsTheCallInsteadOfSpinning() {
    Claim claim = claimed();
    storage.beforeWrite = writes -> renew(claim);

    assertThatThrownBy(() -> fromSnapshot.transition(claim, DeliveryReceipt.none()))
        .isExactlyInstanceOf(OutboxStoreException.class).hasMessageContaining(claim.entryId().toString())
        .hasMessageContaining("moved it on");
    assertThat(storage.entries.get(claim.entryId()).status()).isEqualTo(EntryStatus.CLAIMED);
  }

  @Test
  void evaluatingFirstReportsAWriteLandingBetweenAsConcurrencyLostWithTheWinner() {
    TransitionKernel evaluatingFirst = TransitionKernel.evaluatingFirst(storage, CLOCK);
    Claim claim = claimed();
    OutboxEntry[] winner = new OutboxEntry[1];
    storage.beforeWrite = writes -> {
      storage.beforeWrite = null;
      winner[0] = renew(claim);
    };

    ClaimTransitionResult result = evaluatingFirst.transition(claim, DeliveryReceipt.none());

    assertThat(result.outcome()).isEqualTo(ClaimTransitionOutcome.CONCURRENCY_LOST);
    assertThat(result.entry()).isEqualTo(winner[0]);
  }

  /** Conditional writes over a map, with hooks that stage what lands between the kernel's steps. */
  private static final class MapWrites implements ConditionalWrites {
    final Map<EntryId, OutboxEntry> entries = new HashMap<>();
    Consumer<List<ConditionalWrite>> beforeWrite;
    boolean sayNothing;
    boolean failReads;
    int writeCalls;
    int reads;

    @Override
    public List<WriteAnswer> writeAll(List<ConditionalWrite> writes) {
      writeCalls++;
      if (beforeWrite != null) {
        beforeWrite.accept(writes);
      }
      List<WriteAnswer> answers = new ArrayList<>();
      for (ConditionalWrite write : writes) {
        OutboxEntry stored = entries.get(write.entryId());
        boolean matches = stored != null && stored.revision() == write.expectedRevision()
            && stored.status() == EntryStatus.CLAIMED;
        if (matches) {
          entries.put(write.entryId(), write.next());
        }
        answers.add(sayNothing ? WriteAnswer.UNSAID : matches ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      reads++;
      if (failReads) {
        throw new OutboxStoreException("connection refused");
      }
      return Optional.ofNullable(entries.get(id));
    }
  }
}
