package io.claimedoutbox.port.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Store listeners: every call of a kernel store heard once, from the store itself")
class KernelOutboxStoreListenersTest {

  private static final WorkerId WORKER = WorkerId.of("w");
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final MapStorage storage = new MapStorage();
  private final StorageBackedOutboxStore store =
      StorageBackedOutboxStore.over(storage, Clock.fixed(Instant.parse("2030-01-01T00:00:00Z"), ZoneOffset.UTC));
  private final Heard heard = new Heard();

  /** Every call and how it ended, as text: {@code claim_due:claimed 2}, {@code transition:failed …}. */
  private static final class Heard implements OutboxStoreListener {
    final List<String> calls = new CopyOnWriteArrayList<>();

    @Override
    public CallListener starting(StoreCall call) {
      String name = call.kind().tagValue();
      return new CallListener() {
        @Override
        public void claimed(List<Claim> claims, long nanos) {
          calls.add(name + ":claimed " + claims.size());
        }

        @Override
        public void transitioned(List<ClaimTransitionResult> results, long nanos) {
          calls.add(name + ":transitioned " + results.stream().map(r -> r.outcome().tagValue()).toList());
        }

        @Override
        public void appended(List<OutboxEntry> entries, long nanos) {
          calls.add(name + ":appended " + entries.size());
        }

        @Override
        public void found(Optional<OutboxEntry> entry, long nanos) {
          calls.add(name + ":found " + entry.isPresent());
        }

        @Override
        public void deleted(boolean existed, long nanos) {
          calls.add(name + ":deleted " + existed);
        }

        @Override
        public void failed(RuntimeException failure, long nanos) {
          calls.add(name + ":failed " + failure.getMessage());
        }
      };
    }
  }

  private static OutboxMessage message(int i) {
    return OutboxMessage.of("orders", new byte[] {(byte) i});
  }

  @Test
  @DisplayName("each call once, with its answer; a batch of transitions is one call")
  void eachCallIsHeardOnceWithItsAnswer() {
    store.listen(heard);

    store.appendAll(List.of(message(1), message(2)));
    List<Claim> claims = store.claimDue(WORKER, 5, LEASE);
    store.tryTransitionAll(claims.stream().map(claim -> new ClaimTransition(claim, DeliveryReceipt.none())).toList());
    store.tryMarkClaimDelivered(claims.get(0), DeliveryReceipt.none());
    store.find(claims.get(0).entryId());
    store.delete(claims.get(0).entryId());

    assertThat(heard.calls).containsExactly("append:appended 2", "claim_due:claimed 2",
        "transition:transitioned [applied, applied]", "transition:transitioned [terminal]", "find:found true",
        "delete:deleted true");
  }

  @Test
  void anArgumentTheStoreRejectsReachesNoListener() {
    store.listen(heard);

    assertThatThrownBy(() -> store.claimDue(WORKER, 0, LEASE)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxEntries");
    assertThatThrownBy(() -> store.tryTransition(null, DeliveryReceipt.none())).isInstanceOf(NullPointerException.class);

    assertThat(heard.calls).isEmpty();
  }

  @Test
  void aFailureIsHeardAndRethrownUnchanged() {
    store.listen(heard);
    OutboxStoreException down = new OutboxStoreException("down");
    storage.failNext = down;

    assertThatThrownBy(() -> store.claimDue(WORKER, 1, LEASE)).isSameAs(down);

    assertThat(heard.calls).containsExactly("claim_due:failed down");
  }

  @Test
  @DisplayName("a listener that throws changes neither the answer nor what the others hear")
  void aListenerThatThrowsChangesNothing() {
    store.listen(call -> {
      throw new IllegalStateException("broken as the call starts");
    });
    store.listen(call -> new OutboxStoreListener.CallListener() {
      @Override
      public void appended(List<OutboxEntry> entries, long nanos) {
        throw new IllegalStateException("broken as the call ends");
      }
    });
    store.listen(heard);

    List<OutboxEntry> appended = store.appendAll(List.of(message(1)));

    assertThat(appended).hasSize(1);
    assertThat(store.find(appended.get(0).id())).isPresent();
    assertThat(heard.calls).containsExactly("append:appended 1", "find:found true");
  }

  @Test
  @DisplayName("a closed registration hears nothing more; one listener registered twice hears twice")
  void registrationsAreIndependent() {
    OutboxStoreListener.Registration first = store.listen(heard);
    store.listen(heard);
    store.appendAll(List.of(message(1)));

    first.close();
    first.close();
    store.appendAll(List.of(message(2)));

    assertThat(heard.calls).containsExactly("append:appended 1", "append:appended 1", "append:appended 1");
  }

  @Test
  @DisplayName("claims taken on append are reported once per commit, whatever the subscribers")
  void claimsTakenOnAppendAreReportedOncePerCommit() {
    List<List<Claim>> reported = new ArrayList<>();
    CommitSignal signal = CommitSignal.local().reportingClaims(reported::add, () -> true);
    signal.subscribe(appended -> { });
    signal.subscribe(appended -> { });
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    OutboxEntry pending = OutboxEntry.appended(EntryId.of("e-1"), message(1), now, WriteStamp.fresh());
    OutboxEntry claimed = OutboxEntry.appended(EntryId.of("e-2"), message(2), now, WriteStamp.fresh())
        .claimedBy(WORKER, now, LEASE, WriteStamp.fresh());

    signal.committed(List.of(pending));
    signal.committed(List.of(pending, claimed));

    assertThat(reported).singleElement().satisfies(claims -> assertThat(claims).singleElement()
        .satisfies(claim -> assertThat(claim.entryId()).isEqualTo(EntryId.of("e-2"))));
  }

  @Test
  @DisplayName("claims two drains took from one append are heard as one call per drain")
  void claimsOnAppendAreHeardPerWorker() {
    StoreListeners listeners = new StoreListeners();
    List<String> calls = new CopyOnWriteArrayList<>();
    listeners.add(call -> new OutboxStoreListener.CallListener() {
      @Override
      public void claimed(List<Claim> claims, long nanos) {
        calls.add(call.kind().tagValue() + " " + call.worker().orElseThrow() + " " + claims.size());
      }
    });
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    List<Claim> claims = new ArrayList<>();
    for (String worker : List.of("a", "b", "a")) {
      claims.add(Claim.of(OutboxEntry.appended(EntryId.generate(), message(1), now, WriteStamp.fresh())
          .claimedBy(WorkerId.of(worker), now, LEASE, WriteStamp.fresh())));
    }

    listeners.claimsCommittedOnAppend(claims);

    assertThat(calls).containsExactly("claim_on_append a 2", "claim_on_append b 1");
  }

  @Test
  @DisplayName("while nobody listens, a commit's claims are not even collected")
  void claimsOnAppendCostNothingWhileNobodyListens() {
    List<List<Claim>> reported = new ArrayList<>();
    CommitSignal signal = CommitSignal.local().reportingClaims(reported::add, () -> false);
    Instant now = Instant.parse("2030-01-01T00:00:00Z");
    OutboxEntry claimed = OutboxEntry.appended(EntryId.of("e-2"), message(2), now, WriteStamp.fresh())
        .claimedBy(WORKER, now, LEASE, WriteStamp.fresh());

    signal.committed(List.of(claimed));

    assertThat(reported).isEmpty();
  }

  @Test
  void aStoreWrittenByHandRefusesListenersNamingItsClass() {
    io.claimedoutbox.port.OutboxClaimOutcomeStore byHand = new ByHandStore();

    assertThatThrownBy(() -> byHand.listen(heard)).isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining(ByHandStore.class.getName()).hasMessageContaining("KernelOutboxStore");
  }

  @Test
  void aTransitionStillOutcomesAsWithoutListeners() {
    store.listen(heard);
    store.appendAll(List.of(message(1)));
    Claim claim = store.claimDue(WORKER, 1, LEASE).get(0);

    assertThat(store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()).outcome())
        .isEqualTo(ClaimTransitionOutcome.APPLIED);
  }

  /** Entries in a map, one lock: enough storage for the kernel's store. */
  private static final class MapStorage implements EntryStorage {
    private final Map<EntryId, OutboxEntry> rows = new HashMap<>();
    private RuntimeException failNext;

    @Override
    public synchronized void insertAll(List<OutboxEntry> entries) {
      entries.forEach(entry -> rows.put(entry.id(), entry));
    }

    @Override
    public synchronized Optional<OutboxEntry> read(EntryId id) {
      return Optional.ofNullable(rows.get(id));
    }

    @Override
    public synchronized boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
      OutboxEntry stored = rows.get(expected.id());
      if (stored == null || stored.revision() != expected.revision()) {
        return false;
      }
      rows.put(next.id(), next);
      return true;
    }

    @Override
    public synchronized boolean remove(EntryId id) {
      return rows.remove(id) != null;
    }

    @Override
    public synchronized List<OutboxEntry> dueCandidates(Instant now, int limit) {
      if (failNext != null) {
        RuntimeException failure = failNext;
        failNext = null;
        throw failure;
      }
      return rows.values().stream().filter(entry -> entry.isDue(now))
          .sorted(Comparator.comparing(entry -> entry.dueAt().orElseThrow())).limit(limit).toList();
    }
  }

  /** A store implementing the port by hand, without the kernel. */
  private static final class ByHandStore implements io.claimedoutbox.port.OutboxClaimOutcomeStore {
    @Override
    public ClaimTransitionResult tryTransition(Claim claim, io.claimedoutbox.domain.TransitionRequest request) {
      throw new UnsupportedOperationException();
    }

    @Override
    public java.util.Set<io.claimedoutbox.port.StoreCapability> capabilities() {
      return java.util.Set.of();
    }

    @Override
    public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
      return List.of();
    }

    @Override
    public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
      return List.of();
    }

    @Override
    public Optional<OutboxEntry> find(EntryId id) {
      return Optional.empty();
    }

    @Override
    public boolean delete(EntryId id) {
      return false;
    }
  }
}
