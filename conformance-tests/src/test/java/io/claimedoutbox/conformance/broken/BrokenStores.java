package io.claimedoutbox.conformance.broken;

import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimToken;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Deliberately broken stores, each with one bug a real adapter could plausibly have. A subclass of
 * the reference store has the bug in a primitive an adapter on the kernel writes (its compare-and-set,
 * its due query, what it says of a lost answer); a {@link WrappedReference} has it in code only a
 * store written by hand has (its own fence, its own batch loop).
 */
final class BrokenStores {

  private BrokenStores() {}

  // ---- bugs in a primitive ----

  /**
   * Bug: the compare-and-set reports a write that matched no row as written (an update count read
   * wrongly), so a race lost between evaluation and write comes back APPLIED.
   */
  static final class AppliedOnLostRace extends InMemoryOutboxStore {
    AppliedOnLostRace(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
      super.compareAndSet(expected, next);
      return true;
    }
  }

  /** Bug: a write whose answer was lost is taken as landed. */
  static final class GuessesAppliedOnLostAnswer extends InMemoryOutboxStore {
    GuessesAppliedOnLostAnswer(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected WriteAnswer lostAnswer(ConditionalWrite write, LinkFailure lost) {
      return WriteAnswer.WRITTEN;
    }
  }

  /** Bug: a broken connection surfaces as the driver's own exception, not the port's. */
  static final class RawDriverExceptionEscapes extends InMemoryOutboxStore {
    RawDriverExceptionEscapes(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected WriteAnswer lostAnswer(ConditionalWrite write, LinkFailure lost) {
      throw lost;
    }
  }

  /** Bug: re-claiming an expired lease stores the old token (the write keeps what the row had). */
  static final class SameTokenOnReclaim extends InMemoryOutboxStore {
    SameTokenOnReclaim(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected OutboxEntry claimAsStored(OutboxEntry candidate, OutboxEntry claimed) {
      if (candidate.currentClaim().isEmpty()) {
        return claimed;
      }
      CurrentClaim old = candidate.currentClaim().get();
      CurrentClaim fresh = claimed.currentClaim().orElseThrow();
      return claimed.toBuilder()
          .attempts(candidate.attempts())
          .claimGeneration(old.token().generation())
          .currentClaim(new CurrentClaim(fresh.owner(), old.token(), fresh.claimedAt(), fresh.leaseUntil()))
          .build();
    }
  }

  /**
   * Bug, in a claim written by hand: entries under a live lease are taken again, so two workers hold
   * one entry. (On the claim kernel a due query that offers such an entry fails the claim: the
   * domain's claim step refuses an entry that is not due.)
   */
  static final class LiveLeaseIgnored extends WrappedReference {
    LiveLeaseIgnored(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
      List<Claim> claims = new ArrayList<>(super.claimDue(worker, maxEntries, maxPayloadBytes, lease));
      Instant now = reference().clock().instant();
      for (OutboxEntry held : reference().rawRows().values()) {
        boolean takenNow = claims.stream().anyMatch(claim -> claim.entryId().equals(held.id()));
        if (claims.size() < maxEntries && !takenNow && held.status() == EntryStatus.CLAIMED && !held.isDue(now)) {
          ClaimToken token = ClaimToken.following(held.claimGeneration());
          OutboxEntry taken = held.toBuilder()
              .attempts(held.attempts() + 1)
              .claimGeneration(token.generation())
              .currentClaim(new CurrentClaim(worker, token, now, now.plus(lease)))
              .updatedAt(now)
              .nextRevision(WriteStamp.fresh())
              .build();
          reference().overwrite(taken);
          claims.add(Claim.of(taken));
        }
      }
      return claims;
    }
  }

  /** Bug: the batch bound is ignored. */
  static final class UnboundedBatch extends InMemoryOutboxStore {
    UnboundedBatch(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected List<OutboxEntry> selectDue(Collection<OutboxEntry> all, Instant now, int max) {
      return super.selectDue(all, now, Integer.MAX_VALUE);
    }
  }

  /** Bug: the newest due entries are claimed first. */
  static final class NewestFirst extends InMemoryOutboxStore {
    NewestFirst(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected List<OutboxEntry> selectDue(Collection<OutboxEntry> all, Instant now, int max) {
      return all.stream()
          .filter(entry -> entry.isDue(now))
          .sorted(Comparator.comparing((OutboxEntry entry) -> entry.dueAt().orElseThrow()).reversed())
          .limit(max)
          .toList();
    }
  }

  /** Bug: ordering keys are ignored, so entries of one key are handed out side by side. */
  static final class KeysIgnored extends InMemoryOutboxStore {
    KeysIgnored(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected List<OutboxEntry> selectDue(Collection<OutboxEntry> all, Instant now, int max) {
      return all.stream()
          .filter(entry -> entry.isDue(now))
          .sorted(Comparator.comparing((OutboxEntry entry) -> entry.dueAt().orElseThrow()).thenComparing(OutboxEntry::id))
          .limit(max)
          .toList();
    }
  }

  /** Bug: a requeue keeps the claim generation, so nothing fences out the holder of an older claim. */
  static final class RequeueKeepsGeneration extends InMemoryOutboxStore {
    RequeueKeepsGeneration(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected OutboxEntry requeuedEntry(OutboxEntry deadLetter, Instant now) {
      OutboxEntry requeued = super.requeuedEntry(deadLetter, now);
      return requeued.toBuilder().claimGeneration(deadLetter.claimGeneration()).build();
    }
  }

  // ---- bugs only a store written by hand can have ----

  /** Bug: a released row (empty owner) still accepts writes from the claim that last held it. */
  static final class EmptyOwnerAccepted extends WrappedReference {
    EmptyOwnerAccepted(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      ClaimTransitionResult result = super.tryTransition(claim, request);
      OutboxEntry durable = result.entry();
      if (result.outcome() != ClaimTransitionOutcome.STALE_CLAIM || durable.status() != EntryStatus.FAILED
          || durable.claimGeneration() != claim.token().generation()) {
        return result;
      }
      OutboxEntry asIfHeld = claim.snapshot().toBuilder().revision(durable.revision()).build();
      OutboxEntry next = request.applyTo(asIfHeld, reference().clock().instant(), WriteStamp.fresh());
      reference().overwrite(next);
      return ClaimTransitionResult.applied(next);
    }
  }

  /** Bug: the batch path takes every element it wrote as applied, whatever the fence said. */
  static final class BatchAssumesSuccess extends WrappedReference {
    BatchAssumesSuccess(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
      return transitions.stream()
          .map(transition -> ClaimTransitionResult.applied(tryTransition(transition.claim(), transition.request()).entry()))
          .toList();
    }
  }

  /** Bug: the fence compares only the owner, so a worker's older claim still writes. */
  static final class OwnerOnlyFence extends WrappedReference {
    OwnerOnlyFence(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      ClaimTransitionResult result = super.tryTransition(claim, request);
      boolean sameOwner = result.outcome() == ClaimTransitionOutcome.STALE_CLAIM
          && result.entry().currentClaim().map(held -> held.owner().equals(claim.owner())).orElse(false);
      return sameOwner ? super.tryTransition(Claim.of(result.entry()), request) : result;
    }
  }

  /** Bug: an expired lease alone makes the holder's claim stale. */
  static final class ExpiredLeaseIsStale extends WrappedReference {
    ExpiredLeaseIsStale(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      Optional<OutboxEntry> durable = find(claim.entryId());
      if (durable.isPresent() && !durable.get().status().isTerminal()
          && claim.leaseUntil().isBefore(reference().clock().instant())) {
        return ClaimTransitionResult.staleClaim(durable.get());
      }
      return super.tryTransition(claim, request);
    }
  }

  /** Bug: the compatibility method throws when the transition was not applied. */
  static final class CompatibilityThrows extends WrappedReference {
    CompatibilityThrows(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public OutboxEntry markClaimDelivered(Claim claim, DeliveryReceipt receipt) {
      ClaimTransitionResult result = tryMarkClaimDelivered(claim, receipt);
      if (!result.isApplied()) {
        throw new IllegalStateException("delivery of " + claim.entryId() + " not applied");
      }
      return result.entry();
    }
  }

  /** Bug: a missing row is reported with a made-up durable entry. */
  static final class FabricatedMissingEntry extends WrappedReference {
    FabricatedMissingEntry(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      ClaimTransitionResult result = super.tryTransition(claim, request);
      if (result.outcome() != ClaimTransitionOutcome.MISSING) {
        return result;
      }
      OutboxEntry madeUp = claim.snapshot().toBuilder().status(EntryStatus.PENDING).currentClaim(null).build();
      return new ClaimTransitionResult(ClaimTransitionOutcome.MISSING, madeUp);
    }
  }

  /** Bug: a batch is written message by message, so a bad element leaves the ones before it. */
  static final class PartialBatch extends WrappedReference {
    PartialBatch(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
      if (messages == null) {
        throw new NullPointerException("messages must not be null");
      }
      List<OutboxEntry> written = new ArrayList<>();
      for (int i = 0; i < messages.size(); i++) {
        if (messages.get(i) == null) {
          throw new NullPointerException("messages[" + i + "] must not be null");
        }
        written.add(super.appendAll(List.of(messages.get(i))).get(0));
      }
      return written;
    }
  }

  /** Bug: an undecodable row is treated as missing. */
  static final class DamageSwallowed extends WrappedReference {
    DamageSwallowed(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public Optional<OutboxEntry> find(EntryId id) {
      try {
        return super.find(id);
      } catch (UndecodableEntryException damaged) {
        return Optional.empty();
      }
    }
  }

  /** Bug: a terminal row is overwritten by a later transition. */
  static final class TerminalOverwritten extends WrappedReference {
    TerminalOverwritten(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      Optional<OutboxEntry> durable = find(claim.entryId());
      if (durable.isPresent() && durable.get().status().isTerminal()) {
        return ClaimTransitionResult.applied(durable.get());
      }
      return super.tryTransition(claim, request);
    }
  }
}
