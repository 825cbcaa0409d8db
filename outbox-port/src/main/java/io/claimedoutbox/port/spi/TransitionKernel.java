package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Claimed transitions, single and batched, decided once for every adapter over its
 * {@link ConditionalWrites}: argument checks before any I/O, the next state computed by the domain,
 * {@link ClaimFence} for every write that did not land, {@link LostAcknowledgement} for every
 * answer that was lost. Two ways to decide, chosen by the adapter:
 *
 * <ul>
 *   <li>{@link #fromSnapshot} (the store declares {@link StoreCapability#ATOMIC_EVALUATION}): every
 *       element is written at once, conditioned on its claim's snapshot, so a transition the claim
 *       still holds costs one write and no read (one round trip for a whole batch). An element that
 *       did not land is read again: its own stamp means it landed after all; otherwise the fence
 *       decides from that entry, and where the claim still holds it (the holder's own renewal moved
 *       it on since the snapshot) it is written again, conditioned on the entry read. Each write
 *       is decided from the state it was compared with, so the store never reports
 *       {@code CONCURRENCY_LOST}.
 *   <li>{@link #evaluatingFirst} (no capability): each element is read, decided by the fence and
 *       written conditioned on what was read; when another write lands in between, the outcome is
 *       {@code CONCURRENCY_LOST} with the winner, or {@code MISSING} when the entry went (rule 5 of
 *       the contract). The suite stages those races between its read and its write.
 * </ul>
 *
 * <p>A batch that fails part way throws {@link TransitionOutcomeUnknownException} naming the stamp
 * each element's last write was sent with, so a caller settles every element by reading it. Thread
 * safe when the storage is.
 */
public final class TransitionKernel {

  /**
   * How often one element is written again because its holder's own writes keep moving it on; past
   * that the call fails instead of spinning (the holder would have to renew faster than a round trip).
   */
  private static final int MAX_REWRITES = 8;

  private final ConditionalWrites storage;
  private final Clock clock;
  private final boolean atomic;

  private TransitionKernel(ConditionalWrites storage, Clock clock, boolean atomic) {
    this.storage = Arguments.requireNonNull(storage, "storage");
    this.clock = Arguments.requireNonNull(clock, "clock");
    this.atomic = atomic;
  }

  /**
   * The kernel of a store that declares {@link StoreCapability#ATOMIC_EVALUATION}: writes first,
   * conditioned on each claim's snapshot, and reads only what did not land.
   *
   * @param storage the adapter's primitives
   * @param clock where the next state's times come from
   * @return the kernel
   */
  public static TransitionKernel fromSnapshot(ConditionalWrites storage, Clock clock) {
    return new TransitionKernel(storage, clock, true);
  }

  /**
   * The kernel of a store that reads, decides and then writes, and declares no capability for it.
   *
   * @param storage the adapter's primitives
   * @param clock where the next state's times come from
   * @return the kernel
   */
  public static TransitionKernel evaluatingFirst(ConditionalWrites storage, Clock clock) {
    return new TransitionKernel(storage, clock, false);
  }

  /**
   * One transition, as {@link io.claimedoutbox.port.OutboxClaimOutcomeStore#tryTransition}.
   *
   * @param claim the caller's claim
   * @param request the transition
   * @return its outcome and the entry it observed
   * @throws TransitionOutcomeUnknownException when the write was sent and its fate cannot be learned now
   */
  public ClaimTransitionResult transition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    return decide(List.of(new ClaimTransition(claim, request))).get(0);
  }

  /**
   * Many transitions, as {@link io.claimedoutbox.port.OutboxClaimOutcomeStore#tryTransitionAll}:
   * each element decided exactly as it would be alone.
   *
   * @param transitions distinct entries, at most {@link StoreArguments#MAX_BATCH}
   * @return one result per element, in order
   * @throws TransitionOutcomeUnknownException when writes were sent and their fate cannot be learned now
   */
  public List<ClaimTransitionResult> transitionAll(List<ClaimTransition> transitions) {
    List<ClaimTransition> batch = StoreArguments.checkTransitionAll(transitions);
    return batch.isEmpty() ? List.of() : decide(batch);
  }

  /**
   * Decides a batch whose arguments were already checked ({@link KernelOutboxStore} checks them once
   * for the call).
   */
  List<ClaimTransitionResult> decide(List<ClaimTransition> batch) {
    SentWrites sent = new SentWrites(batch);
    try {
      return atomic ? writeFirst(batch, sent) : evaluateEach(batch, sent);
    } catch (TransitionOutcomeUnknownException unknown) {
      throw batch.size() == 1 ? unknown : sent.unknownWith(unknown);
    } catch (WriteStillRunningException stillRunning) {
      throw sent.unknownWith(stillRunning);
    } catch (OutboxStoreException failure) {
      throw sent.isEmpty() || batch.size() == 1 ? failure : sent.unknownWith(failure);
    }
  }

  private List<ClaimTransitionResult> writeFirst(List<ClaimTransition> batch, SentWrites sent) {
    Instant now = clock.instant();
    List<ConditionalWrite> writes = new ArrayList<>(batch.size());
    for (ClaimTransition transition : batch) {
      writes.add(plan(transition, transition.claim().snapshot(), now));
    }
    List<WriteAnswer> answers;
    try {
      answers = storage.writeAll(writes);
    } catch (WriteOutcomeUnknownException lost) {
      writes.forEach(sent::record);
      if (lost instanceof WriteStillRunningException stillRunning) {
        throw stillRunning;
      }
      List<ClaimTransitionResult> results = new ArrayList<>(batch.size());
      for (int i = 0; i < batch.size(); i++) {
        results.add(resolveLost(batch.get(i), writes.get(i), lost));
      }
      return results;
    }
    if (answers.size() != writes.size()) {
      throw new IllegalStateException("bug: the storage answered " + answers.size() + " of " + writes.size() + " writes");
    }
    ClaimTransitionResult[] results = new ClaimTransitionResult[batch.size()];
    List<EntryId> unwritten = new ArrayList<>();
    for (int i = 0; i < batch.size(); i++) {
      if (answers.get(i) == WriteAnswer.WRITTEN) {
        results[i] = sent.applied(ClaimTransitionResult.applied(writes.get(i).next()));
      } else {
        if (answers.get(i) == WriteAnswer.UNSAID) {
          // perhaps written: should reading it fail, the batch's failure names this stamp too
          sent.record(writes.get(i));
        }
        unwritten.add(batch.get(i).entryId());
      }
    }
    if (!unwritten.isEmpty()) {
      Map<EntryId, Optional<OutboxEntry>> stored = storage.readAll(unwritten);
      for (int i = 0; i < batch.size(); i++) {
        if (results[i] == null) {
          results[i] = sent.applied(
              writeAgainWhileHeld(batch.get(i), writes.get(i), stored.get(batch.get(i).entryId())));
        }
      }
    }
    return List.of(results);
  }

  /**
   * An element whose write did not land, decided from its entry read again; written again at the
   * entry's revision while the claim still holds it.
   */
  private ClaimTransitionResult writeAgainWhileHeld(ClaimTransition transition, ConditionalWrite unlanded,
      Optional<OutboxEntry> stored) {
    ConditionalWrite last = unlanded;
    Optional<OutboxEntry> durable = stored;
    for (int rewrite = 0; ; rewrite++) {
      if (carries(durable, last)) {
        return ClaimTransitionResult.applied(durable.get());
      }
      Optional<ClaimTransitionResult> decided = ClaimFence.decideBeforeWrite(transition.claim(), durable);
      if (decided.isPresent()) {
        return decided.get();
      }
      if (rewrite == MAX_REWRITES) {
        throw new OutboxStoreException(transition.kind() + " of outbox entry " + transition.entryId()
            + " did not land: its holder's own writes moved it on " + MAX_REWRITES + " times meanwhile");
      }
      last = plan(transition, durable.get(), clock.instant());
      Optional<ClaimTransitionResult> landed = writeOne(transition, last);
      if (landed.isPresent()) {
        return landed.get();
      }
      durable = storage.read(transition.entryId());
    }
  }

  private List<ClaimTransitionResult> evaluateEach(List<ClaimTransition> batch, SentWrites sent) {
    List<ClaimTransitionResult> results = new ArrayList<>(batch.size());
    for (ClaimTransition transition : batch) {
      results.add(sent.applied(evaluateThenWrite(transition)));
    }
    return results;
  }

  private ClaimTransitionResult evaluateThenWrite(ClaimTransition transition) {
    Claim claim = transition.claim();
    Optional<OutboxEntry> evaluated = storage.read(claim.entryId());
    Optional<ClaimTransitionResult> decided = ClaimFence.decideBeforeWrite(claim, evaluated);
    if (decided.isPresent()) {
      return decided.get();
    }
    ConditionalWrite write = plan(transition, evaluated.get(), clock.instant());
    Optional<ClaimTransitionResult> landed = writeOne(transition, write);
    if (landed.isPresent()) {
      return landed.get();
    }
    Optional<OutboxEntry> refreshed = storage.read(claim.entryId());
    return carries(refreshed, write) ? ClaimTransitionResult.applied(refreshed.get())
        : ClaimFence.afterLostWrite(claim, refreshed);
  }

  private ClaimTransitionResult resolveLost(ClaimTransition transition, ConditionalWrite write,
      WriteOutcomeUnknownException lost) {
    if (lost instanceof WriteStillRunningException) {
      throw new TransitionOutcomeUnknownException(transition.claim(), transition.kind(), write.stamp(), lost);
    }
    return LostAcknowledgement.resolve(transition.claim(), transition.kind(), write.stamp(),
        write.expectedRevision(), atomic, () -> storage.read(transition.entryId()), lost);
  }

  /**
   * One conditional write: {@code APPLIED} when it was written, the lost answer resolved when it was
   * lost, empty when the backend says (or will not say) whether it was written: the entry read next decides.
   */
  private Optional<ClaimTransitionResult> writeOne(ClaimTransition transition, ConditionalWrite write) {
    WriteAnswer answer;
    try {
      answer = storage.writeAll(List.of(write)).get(0);
    } catch (WriteOutcomeUnknownException lost) {
      return Optional.of(resolveLost(transition, write, lost));
    }
    return answer == WriteAnswer.WRITTEN ? Optional.of(ClaimTransitionResult.applied(write.next())) : Optional.empty();
  }

  /** Whether the stored entry carries {@code write}'s stamp: that write landed. */
  private static boolean carries(Optional<OutboxEntry> stored, ConditionalWrite write) {
    return stored.isPresent() && stored.get().lastWriteStamp().equals(Optional.of(write.stamp()));
  }

  private static ConditionalWrite plan(ClaimTransition transition, OutboxEntry basis, Instant now) {
    return new ConditionalWrite(transition.claim(), transition.kind(), basis,
        transition.request().applyTo(basis, now, WriteStamp.fresh()));
  }

  /**
   * The stamps of the writes a batch that fails part way must name: every element's, when the
   * answer to the whole batch was lost; each element's the backend did not answer for; and each
   * applied element's (a write that failed on its own names its stamp in its own exception).
   */
  private static final class SentWrites {
    private final List<ClaimTransition> batch;
    private final Map<EntryId, WriteStamp> stamps = new LinkedHashMap<>();

    SentWrites(List<ClaimTransition> batch) {
      this.batch = batch;
    }

    void record(ConditionalWrite write) {
      stamps.put(write.entryId(), write.stamp());
    }

    ClaimTransitionResult applied(ClaimTransitionResult result) {
      if (result.isApplied()) {
        stamps.put(result.entry().id(), result.entry().lastWriteStamp().orElseThrow());
      }
      return result;
    }

    boolean isEmpty() {
      return stamps.isEmpty();
    }

    TransitionOutcomeUnknownException unknownWith(OutboxStoreException cause) {
      if (batch.size() == 1 && !stamps.isEmpty()) {
        ClaimTransition only = batch.get(0);
        return new TransitionOutcomeUnknownException(only.claim(), only.kind(), stamps.get(only.entryId()), cause);
      }
      return TransitionOutcomeUnknownException.ofPartialBatch(batch, stamps, cause);
    }
  }
}
