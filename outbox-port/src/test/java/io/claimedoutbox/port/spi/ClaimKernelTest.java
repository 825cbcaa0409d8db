package io.claimedoutbox.port.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ClaimKernel: a claim is the caller's exactly when its conditional write landed")
class ClaimKernelTest {

  private static final Instant NOW = Instant.parse("2030-01-01T00:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final WorkerId ALICE = WorkerId.of("alice");

  private final MapClaims storage = new MapClaims();
  private final ClaimKernel kernel = new ClaimKernel(storage, CLOCK);

  @Test
  @DisplayName("written claims are returned in candidate order, all with one stamp; a write that did not match is left out")
  void keepsWhatWasWritten() {
    OutboxEntry first = storage.add(pending("a"));
    OutboxEntry lost = storage.add(pending("b"));
    OutboxEntry third = storage.add(pending("c"));
    storage.beforeWrite = () -> storage.put(lost.toBuilder().revision(lost.revision() + 1).build());

    List<Claim> claims = kernel.claimDue(ALICE, 10, Long.MAX_VALUE, LEASE);

    assertThat(claims).extracting(Claim::entryId).containsExactly(first.id(), third.id());
    assertThat(claims).extracting(claim -> claim.snapshot().lastWriteStamp()).containsOnly(claims.get(0).snapshot()
        .lastWriteStamp());
    assertThat(storage.entries.get(first.id())).isEqualTo(claims.get(0).snapshot());
    assertThat(storage.purposes).containsExactly(ClaimStorage.Purpose.DUE);
  }

  @Test
  @DisplayName("an unsaid answer is settled by the entry read in the unit: ours when it carries this call's stamp")
  void settlesUnsaidAnswersByStamp() {
    OutboxEntry landed = storage.add(pending("a"));
    OutboxEntry rivals = storage.add(pending("b"));
    storage.unsaid = true;
    storage.afterWrite = () -> {
      OutboxEntry stored = storage.entries.get(rivals.id());
      storage.put(stored.toBuilder().revision(stored.revision() + 1).lastWriteStamp(WriteStamp.fresh()).build());
    };

    List<Claim> claims = kernel.claimDue(ALICE, 10, Long.MAX_VALUE, LEASE);

    assertThat(claims).extracting(Claim::entryId).containsExactly(landed.id());
  }

  @Test
  @DisplayName("the heads of keys are claimed only when due, in a unit for chosen entries")
  void claimsOnlyDueHeads() {
    OutboxEntry due = storage.add(pending("a").toBuilder().message(OutboxMessage.of("t", new byte[] {1})
        .withOrderingKey("k1")).build());
    OutboxEntry later = storage.add(pending("b").toBuilder().message(OutboxMessage.of("t", new byte[] {2})
        .withOrderingKey("k2")).availableAt(NOW.plusSeconds(60)).build());
    storage.heads.put("k1", due);
    storage.heads.put("k2", later);

    List<Claim> claims = kernel.claimNextOfKeys(ALICE, List.of("k1", "k2"), LEASE);

    assertThat(claims).extracting(Claim::entryId).containsExactly(due.id());
    assertThat(storage.purposes).containsExactly(ClaimStorage.Purpose.CHOSEN);
  }

  @Test
  @DisplayName("appended entries: nothing where the storage does not claim them; else only those still as appended, unkeyed and due")
  void claimsAppendedOnlyWhereDeclared() {
    OutboxEntry fresh = storage.add(pending("a"));
    OutboxEntry keyed = storage.add(pending("b").toBuilder().message(OutboxMessage.of("t", new byte[] {1})
        .withOrderingKey("k")).build());

    assertThat(kernel.claimAppended(ALICE, List.of(fresh, keyed), LEASE)).isEmpty();
    assertThat(storage.purposes).isEmpty();

    storage.claimsAppended = true;
    assertThat(kernel.claimAppended(ALICE, List.of(fresh, keyed), LEASE)).extracting(Claim::entryId)
        .containsExactly(fresh.id());
    assertThat(storage.purposes).containsExactly(ClaimStorage.Purpose.CHOSEN);
  }

  @Test
  @DisplayName("nothing due: no write is sent")
  void nothingDueWritesNothing() {
    storage.add(pending("a").toBuilder().availableAt(NOW.plusSeconds(60)).build());

    assertThat(kernel.claimDue(ALICE, 10, Long.MAX_VALUE, LEASE)).isEmpty();
    assertThat(storage.writeCalls).isZero();
  }

  @Test
  @DisplayName("a storage that answers a different number of writes fails the claim")
  void wrongAnswerCountFails() {
    storage.add(pending("a"));
    storage.add(pending("b"));
    storage.dropAnswer = true;

    assertThatThrownBy(() -> kernel.claimDue(ALICE, 10, Long.MAX_VALUE, LEASE))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("1 answers for 2 claims");
  }

  private static OutboxEntry pending(String id) {
    return OutboxEntry.appended(EntryId.of(id), OutboxMessage.of("t", new byte[] {0}), NOW, WriteStamp.fresh());
  }

  /** Entries in a map, each claim a compare-and-set on the revision; hooks stage what a rival does. */
  private static final class MapClaims implements ClaimStorage, ClaimStorage.Unit {
    final Map<EntryId, OutboxEntry> entries = new LinkedHashMap<>();
    final Map<String, OutboxEntry> heads = new LinkedHashMap<>();
    final List<Purpose> purposes = new ArrayList<>();
    Runnable beforeWrite = () -> {};
    Runnable afterWrite = () -> {};
    boolean unsaid;
    boolean dropAnswer;
    boolean claimsAppended;
    int writeCalls;

    OutboxEntry add(OutboxEntry entry) {
      entries.put(entry.id(), entry);
      return entry;
    }

    void put(OutboxEntry entry) {
      entries.put(entry.id(), entry);
    }

    @Override
    public <T> T inUnit(Purpose purpose, String what, UnitWork<T> work) {
      purposes.add(purpose);
      return work.run(this);
    }

    @Override
    public List<OutboxEntry> firstUnfinishedOfKeys(List<String> keys) {
      return keys.stream().map(heads::get).filter(head -> head != null).toList();
    }

    @Override
    public boolean claimsAppended() {
      return claimsAppended;
    }

    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes) {
      return entries.values().stream().filter(entry -> entry.status() == EntryStatus.PENDING && entry.isDue(now))
          .limit(maxEntries).toList();
    }

    @Override
    public List<WriteAnswer> writeClaims(List<ClaimWrite> writes) {
      writeCalls++;
      beforeWrite.run();
      List<WriteAnswer> answers = new ArrayList<>();
      for (ClaimWrite write : writes) {
        OutboxEntry stored = entries.get(write.candidate().id());
        boolean matches = stored != null && stored.revision() == write.expectedRevision();
        if (matches) {
          put(write.claimed());
        }
        answers.add(unsaid ? WriteAnswer.UNSAID : matches ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
      }
      afterWrite.run();
      return dropAnswer ? answers.subList(1, answers.size()) : answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return Optional.ofNullable(entries.get(id));
    }
  }
}
