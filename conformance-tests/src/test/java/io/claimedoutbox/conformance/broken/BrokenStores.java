package io.claimedoutbox.conformance.broken;

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
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** Deliberately broken stores, each with one bug a real adapter could plausibly have. */
final class BrokenStores {

  private BrokenStores() {}

  /** Bug: a released row (empty owner) still accepts writes from the claim that last held it. */
  static final class EmptyOwnerAccepted extends InMemoryOutboxStore {
    EmptyOwnerAccepted(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected Optional<ClaimTransitionResult> decideBeforeWrite(Claim claim, Optional<OutboxEntry> durable) {
      if (durable.isPresent() && durable.get().status() == EntryStatus.FAILED
          && durable.get().claimGeneration() == claim.token().generation()) {
        return Optional.empty();
      }
      return super.decideBeforeWrite(claim, durable);
    }

    @Override
    protected OutboxEntry written(
        OutboxEntry evaluated, Claim claim, TransitionRequest request, Instant now, WriteStamp stamp) {
      OutboxEntry asIfHeld = claim.snapshot().toBuilder().revision(evaluated.revision()).build();
      return super.written(asIfHeld, claim, request, now, stamp);
    }
  }

  /** Bug: the batch path takes every element it wrote as applied, whatever the fence said. */
  static final class BatchAssumesSuccess extends InMemoryOutboxStore {
    BatchAssumesSuccess(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
      return transitions.stream()
          .map(transition -> ClaimTransitionResult.applied(tryTransition(transition.claim(), transition.request()).entry()))
          .toList();
    }
  }

  /** Bug: a write whose answer was lost is taken as landed and reported APPLIED. */
  static final class GuessesAppliedOnLostAnswer extends InMemoryOutboxStore {
    GuessesAppliedOnLostAnswer(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected ClaimTransitionResult lostAcknowledgement(
        Claim claim, TransitionKind kind, OutboxEntry next, OutboxEntry evaluated, RuntimeException lost) {
      return ClaimTransitionResult.applied(next);
    }
  }

  /** Bug: a broken connection surfaces as the driver's own exception, not the port's. */
  static final class RawDriverExceptionEscapes extends InMemoryOutboxStore {
    RawDriverExceptionEscapes(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected ClaimTransitionResult lostAcknowledgement(
        Claim claim, TransitionKind kind, OutboxEntry next, OutboxEntry evaluated, RuntimeException lost) {
      throw lost;
    }
  }

  /** Bug: a lost compare-and-set is reported as APPLIED with the winner's entry. */
  static final class AppliedOnLostRace extends InMemoryOutboxStore {
    AppliedOnLostRace(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected ClaimTransitionResult afterLostWrite(Claim claim, Optional<OutboxEntry> refreshed) {
      return ClaimTransitionResult.applied(refreshed.orElse(claim.snapshot()));
    }
  }

  /** Bug: re-claiming an expired lease keeps the old token. */
  static final class SameTokenOnReclaim extends InMemoryOutboxStore {
    SameTokenOnReclaim(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected OutboxEntry claim(OutboxEntry due, WorkerId worker, Instant now, Duration lease) {
      OutboxEntry claimed = super.claim(due, worker, now, lease);
      if (due.currentClaim().isEmpty()) {
        return claimed;
      }
      CurrentClaim old = due.currentClaim().get();
      CurrentClaim fresh = claimed.currentClaim().orElseThrow();
      return claimed.toBuilder()
          .attempts(due.attempts())
          .claimGeneration(old.token().generation())
          .currentClaim(new CurrentClaim(worker, old.token(), fresh.claimedAt(), fresh.leaseUntil()))
          .build();
    }
  }

  /** Bug: the due query ignores live leases, so two workers hold one entry. */
  static final class LiveLeaseIgnored extends InMemoryOutboxStore {
    LiveLeaseIgnored(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected List<OutboxEntry> selectDue(Collection<OutboxEntry> all, Instant now, int max) {
      return all.stream()
          .filter(entry -> entry.isDue(now) || entry.status() == EntryStatus.CLAIMED)
          .limit(max)
          .toList();
    }

    @Override
    protected OutboxEntry claim(OutboxEntry due, WorkerId worker, Instant now, Duration lease) {
      ClaimToken token = ClaimToken.following(due.claimGeneration());
      return due.toBuilder()
          .status(EntryStatus.CLAIMED)
          .attempts(due.attempts() + 1)
          .claimGeneration(token.generation())
          .currentClaim(new CurrentClaim(worker, token, now, now.plus(lease)))
          .updatedAt(now)
          .nextRevision(WriteStamp.fresh())
          .build();
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

  /** Bug: the fence compares only the owner, so a worker's older claim still writes. */
  static final class OwnerOnlyFence extends InMemoryOutboxStore {
    OwnerOnlyFence(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected Optional<ClaimTransitionResult> decideBeforeWrite(Claim claim, Optional<OutboxEntry> durable) {
      boolean sameOwner = durable.flatMap(OutboxEntry::currentClaim)
          .map(held -> held.owner().equals(claim.owner()))
          .orElse(false);
      return sameOwner ? Optional.empty() : super.decideBeforeWrite(claim, durable);
    }
  }

  /** Bug: an expired lease alone makes the holder's claim stale. */
  static final class ExpiredLeaseIsStale extends InMemoryOutboxStore {
    private final Clock clock;

    ExpiredLeaseIsStale(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
      this.clock = clock;
    }

    @Override
    protected Optional<ClaimTransitionResult> decideBeforeWrite(Claim claim, Optional<OutboxEntry> durable) {
      if (durable.isPresent() && !durable.get().status().isTerminal()
          && claim.leaseUntil().isBefore(clock.instant())) {
        return Optional.of(ClaimTransitionResult.staleClaim(durable.get()));
      }
      return super.decideBeforeWrite(claim, durable);
    }
  }

  /** Bug: the compatibility method throws when the transition was not applied. */
  static final class CompatibilityThrows extends InMemoryOutboxStore {
    CompatibilityThrows(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
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
  static final class FabricatedMissingEntry extends InMemoryOutboxStore {
    FabricatedMissingEntry(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected Optional<ClaimTransitionResult> decideBeforeWrite(Claim claim, Optional<OutboxEntry> durable) {
      if (durable.isEmpty()) {
        OutboxEntry madeUp = claim.snapshot().toBuilder()
            .status(EntryStatus.PENDING).currentClaim(null).build();
        return Optional.of(new ClaimTransitionResult(ClaimTransitionOutcome.MISSING, madeUp));
      }
      return super.decideBeforeWrite(claim, durable);
    }
  }

  /** Bug: a batch is written message by message, so a bad element leaves the ones before it. */
  static final class PartialBatch extends InMemoryOutboxStore {
    PartialBatch(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
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
  static final class DamageSwallowed extends InMemoryOutboxStore {
    DamageSwallowed(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
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
  static final class TerminalOverwritten extends InMemoryOutboxStore {
    TerminalOverwritten(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected Optional<ClaimTransitionResult> decideBeforeWrite(Claim claim, Optional<OutboxEntry> durable) {
      if (durable.isPresent() && durable.get().status().isTerminal()) {
        return Optional.of(ClaimTransitionResult.applied(durable.get()));
      }
      return super.decideBeforeWrite(claim, durable);
    }
  }
}
