package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.StoreCapability;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The whole store contract over an adapter's {@link EntryStorage}: this is where an adapter author
 * starts. Arguments are checked before any I/O. Transitions are the {@link TransitionKernel}'s,
 * {@linkplain TransitionKernel#evaluatingFirst evaluating first} over the storage's
 * compare-and-set: the entry is read, the claim fence decides, the next entry is written with one
 * compare-and-set, and when that loses the outcome is {@code CONCURRENCY_LOST} (or {@code MISSING})
 * with what won; when the storage says the answer to a write was lost
 * ({@link WriteOutcomeUnknownException}), the entry read again decides. A claim takes the storage's
 * due candidates one compare-and-set each, so two workers never hold one entry.
 *
 * <p>It declares no {@link StoreCapability}: evaluation and write are two steps, so the suite's
 * staged-race rules (T7–T9) run against it. Batched transitions run one by one. Thread-safe when
 * the storage is.
 */
public final class StorageBackedOutboxStore extends KernelOutboxStore {

  private final EntryStorage storage;
  private final Clock clock;
  private final TransitionKernel transitions;
  private final ClaimKernel claims;

  private StorageBackedOutboxStore(EntryStorage storage, Clock clock) {
    this.storage = Arguments.requireNonNull(storage, "storage");
    this.clock = Arguments.requireNonNull(clock, "clock");
    this.transitions = TransitionKernel.evaluatingFirst(new CompareAndSetWrites(storage), clock);
    this.claims = new ClaimKernel(new CompareAndSetClaims(storage), clock);
  }

  /**
   * @param storage the adapter's primitives
   * @param clock where the store reads time; every worker's clock should agree within a lease
   * @return the store
   */
  public static StorageBackedOutboxStore over(EntryStorage storage, Clock clock) {
    return new StorageBackedOutboxStore(storage, clock);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return Set.of();
  }

  @Override
  protected TransitionKernel transitionKernel() {
    return transitions;
  }

  @Override
  protected List<OutboxEntry> appendChecked(List<OutboxMessage> messages) {
    List<OutboxEntry> appended = NewEntries.of(messages, clock.instant());
    storage.insertAll(appended);
    return appended;
  }

  @Override
  protected Optional<OutboxEntry> read(EntryId id) {
    return storage.read(id);
  }

  @Override
  protected boolean remove(EntryId id) {
    return storage.remove(id);
  }

  @Override
  protected ClaimKernel claimKernel() {
    return claims;
  }

  /**
   * The storage's due candidates and compare-and-set as the claim kernel's primitives: each claim its
   * own compare-and-set, so a unit of work is simply the calls in turn.
   */
  private record CompareAndSetClaims(EntryStorage storage) implements ClaimStorage, ClaimStorage.Unit {
    @Override
    public <T> T inUnit(Purpose purpose, String what, UnitWork<T> work) {
      return work.run(this);
    }

    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes) {
      List<OutboxEntry> due = new ArrayList<>();
      PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
      for (OutboxEntry candidate : storage.dueCandidates(now, maxEntries)) {
        if (!candidate.isDue(now)) {
          continue;
        }
        if (!budget.take(candidate.message().payloadSize())) {
          break;
        }
        due.add(candidate);
      }
      return due;
    }

    @Override
    public List<WriteAnswer> writeClaims(List<ClaimWrite> writes) {
      List<WriteAnswer> answers = new ArrayList<>(writes.size());
      for (ClaimWrite write : writes) {
        answers.add(storage.compareAndSet(write.candidate(), write.claimed()) ? WriteAnswer.WRITTEN
            : WriteAnswer.NOT_WRITTEN);
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return storage.read(id);
    }
  }

  /** The storage's compare-and-set as the kernel's conditional write, one entry at a time. */
  private record CompareAndSetWrites(EntryStorage storage) implements ConditionalWrites {
    @Override
    public List<WriteAnswer> writeAll(List<ConditionalWrite> writes) {
      List<WriteAnswer> answers = new ArrayList<>(writes.size());
      for (ConditionalWrite write : writes) {
        answers.add(storage.compareAndSet(write.basis(), write.next()) ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return storage.read(id);
    }
  }
}
