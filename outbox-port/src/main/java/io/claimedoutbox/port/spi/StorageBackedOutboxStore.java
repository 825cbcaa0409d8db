package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The whole store contract over an adapter's {@link EntryStorage}: this is where an adapter author
 * starts. Arguments are checked before any I/O; a transition reads the entry, lets
 * {@link ClaimFence} decide {@code MISSING}, {@code TERMINAL} or {@code STALE_CLAIM}, writes the
 * next entry with one compare-and-set, and when that loses, reads again and reports
 * {@code CONCURRENCY_LOST} (or {@code MISSING}) with what won; when the storage says the answer
 * to a write was lost ({@link WriteOutcomeUnknownException}), the entry read again decides
 * ({@link LostAcknowledgement}). A claim takes the storage's due
 * candidates one compare-and-set each, so two workers never hold one entry.
 *
 * <p>It declares no {@link StoreCapability}: evaluation and write are two steps, so the suite's
 * staged-race rules (T7–T9) run against it. Batched transitions run one by one; a backend with a
 * cheaper batch path implements {@link OutboxClaimOutcomeStore} itself. Thread-safe when the storage
 * is.
 */
public final class StorageBackedOutboxStore implements OutboxClaimOutcomeStore {

  private final EntryStorage storage;
  private final Clock clock;

  private StorageBackedOutboxStore(EntryStorage storage, Clock clock) {
    this.storage = Arguments.requireNonNull(storage, "storage");
    this.clock = Arguments.requireNonNull(clock, "clock");
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
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxEntry> appended = NewEntries.of(StoreArguments.checkAppendAll(messages), clock.instant());
    storage.insertAll(appended);
    return appended;
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    return storage.read(Arguments.requireNonNull(id, "id"));
  }

  @Override
  public boolean delete(EntryId id) {
    return storage.remove(Arguments.requireNonNull(id, "id"));
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    StoreArguments.checkClaimDue(worker, maxEntries, maxPayloadBytes, lease);
    Instant now = clock.instant();
    List<Claim> claims = new ArrayList<>();
    PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
    for (OutboxEntry candidate : storage.dueCandidates(now, maxEntries)) {
      if (!candidate.isDue(now)) {
        continue;
      }
      if (!budget.take(candidate.message().payloadSize())) {
        break;
      }
      OutboxEntry claimed = candidate.claimedBy(worker, now, lease, WriteStamp.fresh());
      if (storage.compareAndSet(candidate, claimed)) {
        claims.add(Claim.of(claimed));
      }
    }
    return claims;
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    Optional<OutboxEntry> evaluated = storage.read(claim.entryId());
    Optional<ClaimTransitionResult> decided = ClaimFence.decideBeforeWrite(claim, evaluated);
    if (decided.isPresent()) {
      return decided.get();
    }
    OutboxEntry next = request.applyTo(evaluated.get(), clock.instant(), WriteStamp.fresh());
    boolean written;
    try {
      written = storage.compareAndSet(evaluated.get(), next);
    } catch (WriteOutcomeUnknownException answerLost) {
      return LostAcknowledgement.resolve(claim, request.kind(), next.lastWriteStamp().orElseThrow(),
          evaluated.get().revision(), false, () -> storage.read(claim.entryId()), answerLost);
    }
    if (written) {
      return ClaimTransitionResult.applied(next);
    }
    return ClaimFence.afterLostWrite(claim, storage.read(claim.entryId()));
  }
}
