package io.claimedoutbox.conformance.broken;

import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.NewEntries;
import io.claimedoutbox.port.spi.TransitionKernel;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Broken stores for the situations the suite did not stage until planted bugs showed it (issue 25):
 * each bug is one a real adapter could have, and only the rule named beside it catches it. As in
 * {@link BrokenStores}, a subclass has the bug in a primitive, a {@link WrappedReference} in code only
 * a store written by hand has.
 */
final class BlindSpotStores {

  private BlindSpotStores() {}

  /**
   * T14. Bug: the compare-and-set compares the claim (status, owner, token) instead of the revision,
   * so a transition computed from the claim's snapshot lands over the holder's own renewal, at the
   * same revision. Evaluation and write are one step here, as in the SQL adapter, and declared so.
   */
  static final class WritesOverTheRenewal extends InMemoryOutboxStore {
    private final TransitionKernel fromSnapshot;

    WritesOverTheRenewal(Clock clock, TransitionWriteHook hook) {
      super(clock, TransitionWriteHook.NONE);
      this.fromSnapshot = TransitionKernel.fromSnapshot(conditionalWrites(), clock);
    }

    @Override
    public Set<StoreCapability> capabilities() {
      Set<StoreCapability> declared = EnumSet.of(StoreCapability.ATOMIC_EVALUATION);
      declared.addAll(super.capabilities());
      return declared;
    }

    @Override
    protected TransitionKernel transitionKernel() {
      return fromSnapshot;
    }

    @Override
    protected boolean stillMatches(OutboxEntry stored, OutboxEntry expected) {
      return expected.status() == EntryStatus.CLAIMED ? ClaimFence.isHeldBy(stored, Claim.of(expected))
          : super.stillMatches(stored, expected);
    }
  }

  /**
   * C16. Bug: claimAppended runs the due query instead of claiming what it was handed, so it takes
   * whatever is due (a keyed entry too) rather than only the entries still as appended.
   */
  static final class ClaimsAppendedByDueQuery extends WrappedReference {
    ClaimsAppendedByDueQuery(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
      StoreArguments.checkClaimAppended(worker, appended, lease);
      return appended.isEmpty() ? List.of() : claimDue(worker, appended.size(), lease);
    }
  }

  /**
   * C17. Bug: an append's commit reports the entries as they were before a listener took them, so
   * the drain that took one is never handed its claim and the entry waits out the lease.
   */
  static final class ReportsEntriesAsBeforeTheOffer extends InMemoryOutboxStore {
    ReportsEntriesAsBeforeTheOffer(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected List<OutboxEntry> appendChecked(List<OutboxMessage> batch) {
      Instant now = clock().instant();
      List<OutboxEntry> fresh = NewEntries.of(batch, now);
      List<OutboxEntry> written = commitSignal().claimOnAppend(fresh, now);
      written.forEach(this::overwrite);
      commitSignal().committed(fresh);
      return written;
    }
  }

  /** M4. Bug: requeueAll's own paging drops the topic after the first full page. */
  static final class RequeueAllDropsTheTopicAfterThePage extends InMemoryOutboxStore {
    RequeueAllDropsTheTopicAfterThePage(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    public long requeueAll(DeadLetterQuery query) {
      long requeued = 0;
      DeadLetterQuery page = query;
      List<OutboxEntry> letters;
      do {
        letters = deadLetters(page);
        for (OutboxEntry letter : letters) {
          requeued += requeue(letter.id()).outcome() == RequeueResult.Outcome.REQUEUED ? 1 : 0;
        }
        if (!letters.isEmpty()) {
          page = DeadLetterQuery.firstPage(query.limit()).after(letters.get(letters.size() - 1).id());
        }
      } while (letters.size() == query.limit());
      return requeued;
    }
  }

  /** M5. Bug: the purge picks rows by the age of their last write alone, finished or not. */
  static final class PurgesByAgeAlone extends InMemoryOutboxStore {
    private final Clock clock;

    PurgesByAgeAlone(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
      this.clock = clock;
    }

    @Override
    protected int purgeFinishedChecked(Duration olderThan, int batchSize) {
      int purged = super.purgeFinishedChecked(olderThan, batchSize);
      Instant cutoff = clock.instant().minus(olderThan);
      for (OutboxEntry row : rawRows().values()) {
        if (purged < batchSize && !row.status().isTerminal() && row.updatedAt().isBefore(cutoff)) {
          delete(row.id());
          purged++;
        }
      }
      return purged;
    }
  }

  /** C15. Bug: on store time, claims read the server's clock but the transition kernel was built on the worker's. */
  static final class TransitionsOnTheWorkersClock extends InMemoryOutboxStore {
    private final TransitionKernel onWorkersClock;

    TransitionsOnTheWorkersClock(Clock storeClock, Clock workerClock, TransitionWriteHook hook) {
      super(storeClock, hook);
      this.onWorkersClock = TransitionKernel.evaluatingFirst(conditionalWrites(), workerClock);
    }

    @Override
    protected TransitionKernel transitionKernel() {
      return onWorkersClock;
    }
  }

  /** B10. Bug: a batch writes element by element and lets a damaged row's failure out without saying what it wrote. */
  static final class BatchWritesSilently extends WrappedReference {
    BatchWritesSilently(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
      StoreArguments.checkTransitionAll(transitions);
      List<ClaimTransitionResult> results = new ArrayList<>();
      for (ClaimTransition transition : transitions) {
        results.add(tryTransition(transition.claim(), transition.request()));
      }
      return results;
    }
  }

  /** B7. Bug: the batch's elements are checked, but the check stops at the limit instead of refusing a longer batch. */
  static final class BatchSizeUnchecked extends WrappedReference {
    BatchSizeUnchecked(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
      StoreArguments.checkTransitionAll(transitions == null ? null
          : transitions.subList(0, Math.min(transitions.size(), StoreArguments.MAX_BATCH)));
      List<ClaimTransitionResult> results = new ArrayList<>();
      Map<EntryId, WriteStamp> applied = new HashMap<>();
      for (ClaimTransition transition : transitions) {
        ClaimTransitionResult result;
        try {
          result = tryTransition(transition.claim(), transition.request());
        } catch (OutboxStoreException failure) {
          if (applied.isEmpty()) {
            throw failure;
          }
          throw TransitionOutcomeUnknownException.ofPartialBatch(transitions, applied, failure);
        }
        if (result.isApplied()) {
          result.entry().lastWriteStamp().ifPresent(stamp -> applied.put(transition.entryId(), stamp));
        }
        results.add(result);
      }
      return results;
    }
  }

  /** M2. Bug: dead letters are listed from the start whatever page is asked for, so a walk never ends. */
  static final class DeadLettersIgnoreAfter extends InMemoryOutboxStore {
    DeadLettersIgnoreAfter(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected List<OutboxEntry> deadLettersChecked(DeadLetterQuery query) {
      DeadLetterQuery fromTheStart = DeadLetterQuery.firstPage(query.limit());
      return super.deadLettersChecked(query.topic().map(fromTheStart::topic).orElse(fromTheStart));
    }
  }

  /** F6. Bug: a lost save is taken as landed when the row moved one revision on and is still held by the claim. */
  static final class GuessesAppliedFromTheNextRevision extends InMemoryOutboxStore {
    GuessesAppliedFromTheNextRevision(Clock clock, TransitionWriteHook hook) {
      super(clock, hook);
    }

    @Override
    protected WriteAnswer lostAnswer(ConditionalWrite write, LinkFailure lost) {
      OutboxEntry row = rawRows().get(write.entryId());
      if (row != null && row.revision() == write.expectedRevision() + 1 && ClaimFence.isHeldBy(row, write.claim())) {
        return WriteAnswer.WRITTEN;
      }
      return super.lostAnswer(write, lost);
    }
  }

  /** A5. Bug: the store tells its listeners of transitions only, so claims, appends and deletes go unobserved. */
  static final class ListenersHearOnlyTransitions extends WrappedReference {
    ListenersHearOnlyTransitions(InMemoryOutboxStore reference) {
      super(reference);
    }

    @Override
    public OutboxStoreListener.Registration listen(OutboxStoreListener listener) {
      return super.listen(call -> call.kind() == StoreCall.Kind.TRANSITION ? listener.starting(call)
          : OutboxStoreListener.CallListener.NONE);
    }
  }
}
