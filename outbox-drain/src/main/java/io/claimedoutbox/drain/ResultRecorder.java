package io.claimedoutbox.drain;

import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * cost the others; an element that still fails is logged and left to lease expiry (delivered again
 * later, never lost).
 */
final class ResultRecorder {

  private static final Logger LOG = LoggerFactory.getLogger(ResultRecorder.class);

  private record Result(InFlightEntry entry, TransitionRequest request) {}

  private final OutboxClaimOutcomeStore store;
  private final WorkerId worker;
  private final int maxGroup;
  private final Consumer<InFlightEntry> recorded;
  private final Queue<Result> waiting = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean writing = new AtomicBoolean();

  ResultRecorder(OutboxClaimOutcomeStore store, WorkerId worker, int maxGroup, Consumer<InFlightEntry> recorded) {
    this.store = store;
    this.worker = worker;
    this.maxGroup = maxGroup;
    this.recorded = recorded;
  }

  /** Hands in a finished entry's result; returns once it is written, or another thread writes it. */
  void record(InFlightEntry entry, TransitionRequest request) {
    waiting.add(new Result(entry, request));
    while (!waiting.isEmpty() && writing.compareAndSet(false, true)) {
      try {
        write(takeGroup());
      } finally {
        writing.set(false);
      }
    }
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
      store.tryTransitionAll(group.stream()
          .map(result -> new ClaimTransition(result.entry().claim(), result.request()))
          .toList());
    } catch (RuntimeException groupFailure) {
      if (group.size() == 1) {
        leftToLeaseExpiry(group.get(0), groupFailure);
      } else {
        LOG.debug("Outbox drain {} could not record {} results in one call; recording them one by one",
            worker, group.size(), groupFailure);
        group.forEach(this::writeAlone);
      }
    } finally {
      group.forEach(result -> recorded.accept(result.entry()));
    }
  }

  private void writeAlone(Result result) {
    try {
      store.tryTransition(result.entry().claim(), result.request());
    } catch (RuntimeException failure) {
      leftToLeaseExpiry(result, failure);
    }
  }

  private void leftToLeaseExpiry(Result result, RuntimeException failure) {
    LOG.warn("Outbox drain {} could not record the result for entry {}; its lease will expire and"
        + " another attempt will follow", worker, result.entry().claim().entryId(), failure);
  }
}
