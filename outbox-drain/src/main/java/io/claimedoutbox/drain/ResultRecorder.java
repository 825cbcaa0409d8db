package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes handler results to the store in groups: results that finish while a write is in flight
 * wait for it and then go together in one {@link OutboxClaimOutcomeStore#tryTransitionAll} call.
 * No thread of its own and no timer: the thread that hands in a result writes, unless another is
 * already writing, in which case that one picks the result up before it stops. So a lone result
 * is written at once, and under load one call carries many.
 *
 * <p>A failed group is retried element by element, so one bad element or a passing fault does not
 * cost the others. A group whose outcome is unknown (its answer lost) is first settled by the write
 * stamps the store says it sent: a result that landed is this drain's, never asked again (asking
 * again would answer {@code TERMINAL} for the drain's own delivery). An element whose write still fails is kept <em>unsettled</em>, not left to lease
 * expiry: the handler's work is done and must not be repeated, only its recording. Each
 * {@link #settle()} (the drain calls it with every lease renewal) reads an unsettled entry again:
 * it carries the lost write's stamp (the write landed), is gone, or is no longer held by the claim
 * (someone else has it now) — settled; still held — the result is written again. Only a result that
 * never lands before another worker re-claims the entry leads to a second delivery.
 *
 * <p><b>Under a stream of hand-offs</b> (entries claimed on append arriving faster than one per
 * 2 ms, {@code streaming}) a result waits up to {@link #STREAM_LINGER} for others instead of being
 * written alone: each hand-off starts its handler at once, and without this every entry would cost
 * its own result transaction beside the application's (one producer thread at ~1,000 transactions
 * a second lost a third of its rate to them). The handler's start is not delayed, only the
 * recording of its end.
 */
final class ResultRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(ResultRecorder.class);

  private record Result(InFlightEntry entry, TransitionRequest request) {}

  /** A result whose write failed; {@code stamp} is the stamp of a write that may have landed. */
  private record Unsettled(Result result, WriteStamp stamp) {}

  private final OutboxClaimOutcomeStore store;
  private final WorkerId worker;
  private final int maxGroup;
  private final Consumer<InFlightEntry> recorded;
  private final Queue<Result> waiting = new ConcurrentLinkedQueue<>();
  private final Queue<Unsettled> unsettled = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean writing = new AtomicBoolean();
  private final AtomicBoolean settling = new AtomicBoolean();
  private final AtomicLong settledLater = new AtomicLong();
  private final DrainFailures failures;
  private final BooleanSupplier streaming;
  private final ScheduledExecutorService scheduler;
  private final AtomicBoolean flushScheduled = new AtomicBoolean();

  /** How long a result waits for others while hand-offs stream in. */
  static final Duration STREAM_LINGER = Duration.ofMillis(20);

  ResultRecorder(OutboxClaimOutcomeStore store, WorkerId worker, int maxGroup, Consumer<InFlightEntry> recorded,
      DrainFailures failures, BooleanSupplier streaming, ScheduledExecutorService scheduler) {
    this.streaming = streaming;
    this.scheduler = scheduler;
    this.store = store;
    this.failures = failures;
    this.worker = worker;
    this.maxGroup = maxGroup;
    this.recorded = recorded;
  }

  /**
   * Hands in a finished entry's result; returns once it is written, or another thread (or, under a
   * stream of hand-offs, the drain's scheduler shortly) writes it.
   */
  void record(InFlightEntry entry, TransitionRequest request) {
    waiting.add(new Result(entry, request));
    if (streaming.getAsBoolean() && lingered()) {
      return;
    }
    writeWaiting();
  }

  /** @return whether a flush after the linger is scheduled, which writes this result with the others */
  private boolean lingered() {
    if (!flushScheduled.compareAndSet(false, true)) {
      return true;
    }
    try {
      scheduler.schedule(this::flush, STREAM_LINGER.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (RejectedExecutionException shutDown) {
      flushScheduled.set(false);
      return false;
    }
  }

  private void flush() {
    flushScheduled.set(false);
    writeWaiting();
  }

  private void writeWaiting() {
    while (!waiting.isEmpty() && writing.compareAndSet(false, true)) {
      try {
        write(takeGroup());
      } finally {
        writing.set(false);
      }
    }
  }

  /** @return results whose first write failed and that were settled afterwards */
  long settledLater() {
    return settledLater.get();
  }

  /** @return results still waiting to be settled */
  int unsettled() {
    return unsettled.size();
  }

  private List<Result> takeGroup() {
    List<Result> group = new ArrayList<>();
    Result next;
    while (group.size() < maxGroup && (next = waiting.poll()) != null) {
      group.add(next);
    }
    return group;
  }

  private void write(List<Result> group) {
    try {
      List<ClaimTransitionResult> outcomes = store.tryTransitionAll(group.stream()
          .map(result -> new ClaimTransition(result.entry().claim(), result.request()))
          .toList());
      for (int i = 0; i < group.size(); i++) {
        Result result = group.get(i);
        if (lostToOwnWrite(result, outcomes.get(i))) {
          writeAlone(result, null, Claim.of(outcomes.get(i).entry()));
        } else {
          recorded.accept(result.entry());
        }
      }
    } catch (TransitionOutcomeUnknownException unknown) {
      LOG.debug("Outbox drain {} does not know which of {} results landed; settling each by its write stamp",
          worker, group.size(), unknown);
      for (Result result : group) {
        Optional<WriteStamp> sent = unknown.sentWriteStamp(result.entry().claim().entryId());
        if (sent.isPresent()) {
          settleOne(new Unsettled(result, sent.get()));
        } else {
          writeAlone(result, null, result.entry().claim());
        }
      }
    } catch (RuntimeException groupFailure) {
      LOG.debug("Outbox drain {} could not record {} results in one call; recording them one by one",
          worker, group.size(), groupFailure);
      group.forEach(result -> writeAlone(result, null, result.entry().claim()));
    } catch (Error error) {
      failures.failed(DrainFailures.Part.RECORDING, error);
      group.forEach(result -> unsettled.add(new Unsettled(result, null)));
    }
  }

  /**
   * One result on its own: recorded, or kept unsettled with the stamp of a write that may have landed.
   *
   * @return whether it was recorded
   */
  private boolean writeAlone(Result result, WriteStamp earlierStamp, Claim claim) {
    try {
      ClaimTransitionResult outcome = store.tryTransition(claim, result.request());
      if (lostToOwnWrite(result, outcome)) {
        store.tryTransition(Claim.of(outcome.entry()), result.request());
      }
      recorded.accept(result.entry());
      return true;
    } catch (TransitionOutcomeUnknownException unknown) {
      keepUnsettled(result, unknown.writeStamp(), unknown);
    } catch (OutboxStoreException nothingWritten) {
      keepUnsettled(result, earlierStamp, nothingWritten);
    } catch (RuntimeException bug) {
      LOG.error("Outbox drain {} could not record the result for entry {}; its lease will expire and"
          + " another attempt will follow", worker, result.entry().claim().entryId(), bug);
      recorded.accept(result.entry());
      return true;
    } catch (Error error) {
      failures.failed(DrainFailures.Part.RECORDING, error);
      unsettled.add(new Unsettled(result, earlierStamp));
    }
    return false;
  }

  /**
   * Whether the store lost the write to this drain's own concurrent write under the same claim (its
   * lease renewal, on a store that evaluates before it writes): the result is then written again
   * under the renewed claim instead of being given up.
   */
  private static boolean lostToOwnWrite(Result result, ClaimTransitionResult outcome) {
    return outcome.outcome() == ClaimTransitionOutcome.CONCURRENCY_LOST
        && ClaimFence.isHeldBy(outcome.entry(), result.entry().claim());
  }

  private void keepUnsettled(Result result, WriteStamp stamp, RuntimeException failure) {
    LOG.warn("Outbox drain {} could not record the result for entry {}; it is kept and checked again with"
        + " the next lease renewal, so the message is not delivered again", worker,
        result.entry().claim().entryId(), failure);
    unsettled.add(new Unsettled(result, stamp));
  }

  /**
   * Gives up the unsettled results (a forced stop): each is left to lease expiry.
   *
   * @return how many were given up
   */
  int abandonUnsettled() {
    int abandoned = 0;
    Unsettled next;
    while ((next = unsettled.poll()) != null) {
      LOG.warn("Outbox drain {} stops with the result for entry {} unrecorded; its lease will expire and"
          + " another attempt will follow", worker, next.result().entry().claim().entryId());
      recorded.accept(next.result().entry());
      abandoned++;
    }
    return abandoned;
  }

  /**
   * Settles what it can of the unsettled results: each is read again and, if it is still this
   * claim's and not yet written, written again.
   *
   * @return how many were settled
   */
  int settle() {
    if (unsettled.isEmpty() || !settling.compareAndSet(false, true)) {
      return 0;
    }
    try {
      int settled = 0;
      for (int pending = unsettled.size(); pending > 0; pending--) {
        Unsettled next = unsettled.poll();
        if (next == null) {
          break;
        }
        settled += settleOne(next) ? 1 : 0;
      }
      return settled;
    } finally {
      settling.set(false);
    }
  }

  private boolean settleOne(Unsettled item) {
    Result result = item.result();
    Claim claim = result.entry().claim();
    if (item.stamp() != null) {
      Optional<OutboxEntry> row;
      try {
        row = store.find(claim.entryId());
      } catch (RuntimeException stillDown) {
        unsettled.add(item);
        return false;
      }
      boolean landed = row.isPresent() && row.get().lastWriteStamp().equals(Optional.of(item.stamp()));
      if (row.isEmpty() || landed || !ClaimFence.isHeldBy(row.get(), claim)) {
        settledLater.incrementAndGet();
        recorded.accept(result.entry());
        return true;
      }
    }
    if (writeAlone(result, item.stamp(), claim)) {
      settledLater.incrementAndGet();
      return true;
    }
    return false;
  }
}
