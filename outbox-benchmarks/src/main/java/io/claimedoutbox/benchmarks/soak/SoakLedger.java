package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak's books, kept by a listener of the store the drains use: every {@code APPLIED} delivery
 * the store reported (to check each against the row at the end), every exception of a claim, a
 * transition or a find that is not one of the two documented ones, and how many documented ones
 * there were.
 */
final class SoakLedger implements OutboxStoreListener {

  private final OutboxClaimOutcomeStore store;
  private final Map<EntryId, List<ClaimTransitionResult>> appliedDeliveries = new ConcurrentHashMap<>();
  /** When each {@code APPLIED} delivery was reported ({@link System#nanoTime()}). */
  private final Map<ClaimTransitionResult, Long> appliedAt = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Long> appliedTimes = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<RuntimeException> undocumented = new ConcurrentLinkedQueue<>();
  private final AtomicLong storeFailures = new AtomicLong();
  private final AtomicLong unknownOutcomes = new AtomicLong();
  /** Set while the soak itself reads, so its own progress checks stay out of the books. */
  private final ThreadLocal<Boolean> soaksOwnRead = ThreadLocal.withInitial(() -> false);

  private SoakLedger(OutboxClaimOutcomeStore store) {
    this.store = store;
  }

  /** @return books kept from now on of every call {@code store} answers */
  static SoakLedger watching(OutboxClaimOutcomeStore store) {
    SoakLedger ledger = new SoakLedger(store);
    store.listen(ledger);
    return ledger;
  }

  @Override
  public CallListener starting(StoreCall call) {
    boolean watched = call.kind() == StoreCall.Kind.TRANSITION || call.kind() == StoreCall.Kind.CLAIM_DUE
        || call.kind() == StoreCall.Kind.FIND;
    if (!watched || soaksOwnRead.get()) {
      return CallListener.NONE;
    }
    return new CallListener() {
      @Override
      public void transitioned(List<ClaimTransitionResult> results, long nanos) {
        note(results);
      }

      @Override
      public void failed(RuntimeException failure, long nanos) {
        if (failure instanceof TransitionOutcomeUnknownException) {
          unknownOutcomes.incrementAndGet();
        } else if (failure instanceof OutboxStoreException) {
          storeFailures.incrementAndGet();
        } else {
          undocumented.add(failure);
        }
      }
    };
  }

  private void note(List<ClaimTransitionResult> results) {
    long now = System.nanoTime();
    for (ClaimTransitionResult result : results) {
      if (result.isApplied() && result.entry().status() == EntryStatus.DELIVERED) {
        appliedAt.put(result, now);
        appliedTimes.add(now);
        appliedDeliveries.merge(result.entry().id(), List.of(result), (a, b) -> {
          List<ClaimTransitionResult> both = new ArrayList<>(a);
          both.addAll(b);
          return both;
        });
      }
    }
  }

  /** A read that stays out of the books, for the soak's own progress checks. */
  Optional<OutboxEntry> delegateFind(EntryId id) {
    soaksOwnRead.set(true);
    try {
      return store.find(id);
    } finally {
      soaksOwnRead.set(false);
    }
  }

  Map<EntryId, List<ClaimTransitionResult>> appliedDeliveries() {
    return appliedDeliveries;
  }

  /** @return when this store reported {@code result}, one of its {@link #appliedDeliveries()} */
  long appliedAt(ClaimTransitionResult result) {
    return appliedAt.getOrDefault(result, 0L);
  }

  /** @return the first {@code APPLIED} delivery this store reported at or after {@code nanos}, if any */
  Optional<Long> firstAppliedAfter(long nanos) {
    return appliedTimes.stream().filter(time -> time >= nanos).min(Long::compare);
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
