package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The store as the soak's drains see it, keeping the books: every {@code APPLIED} delivery the store
 * reported (to check each against the row at the end), every exception that is not one of the two
 * documented ones, and how many documented ones there were.
 */
final class SoakLedger extends ForwardingOutboxStore {

  private final Map<EntryId, List<ClaimTransitionResult>> appliedDeliveries = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<RuntimeException> undocumented = new ConcurrentLinkedQueue<>();
  private final AtomicLong storeFailures = new AtomicLong();
  private final AtomicLong unknownOutcomes = new AtomicLong();

  SoakLedger(OutboxClaimOutcomeStore store) {
    super(store);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    return note(List.of(watch(() -> super.tryTransition(claim, request)))).get(0);
  }

  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    return note(watch(() -> super.tryTransitionAll(transitions)));
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    return watch(() -> super.claimDue(worker, maxEntries, maxPayloadBytes, lease));
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    return watch(() -> super.find(id));
  }

  private List<ClaimTransitionResult> note(List<ClaimTransitionResult> results) {
    for (ClaimTransitionResult result : results) {
      if (result.isApplied() && result.entry().status() == EntryStatus.DELIVERED) {
        appliedDeliveries.merge(result.entry().id(), List.of(result), (a, b) -> {
          List<ClaimTransitionResult> both = new ArrayList<>(a);
          both.addAll(b);
          return both;
        });
      }
    }
    return results;
  }

  private <T> T watch(Supplier<T> call) {
    try {
      return call.get();
    } catch (TransitionOutcomeUnknownException unknown) {
      unknownOutcomes.incrementAndGet();
      throw unknown;
    } catch (OutboxStoreException documented) {
      storeFailures.incrementAndGet();
      throw documented;
    } catch (RuntimeException escaped) {
      undocumented.add(escaped);
      throw escaped;
    }
  }

  /** A read that bypasses the books, for the soak's own progress checks. */
  Optional<OutboxEntry> delegateFind(EntryId id) {
    return delegate().find(id);
  }

  Map<EntryId, List<ClaimTransitionResult>> appliedDeliveries() {
    return appliedDeliveries;
  }

  List<RuntimeException> undocumented() {
    return List.copyOf(undocumented);
  }

  long storeFailures() {
    return storeFailures.get();
  }

  long unknownOutcomes() {
    return unknownOutcomes.get();
  }
}
