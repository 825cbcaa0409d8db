package io.claimedoutbox.benchmarks;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.StoreCall;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts the store calls a drain makes and the time they take, as a listener of the store, so the
 * report can say what bounds the drain: calls per entry and the share of the run spent waiting on
 * the store. Thread-safe.
 */
final class StoreCallCounter implements OutboxStoreListener {

  private final Tally claims = new Tally();
  private final Tally byKey = new Tally();
  private final Tally results = new Tally();

  @Override
  public CallListener starting(StoreCall call) {
    return switch (call.kind()) {
      case CLAIM_DUE -> claims.listener();
      case CLAIM_BY_KEYS -> byKey.listener();
      case TRANSITION -> results.listener();
      default -> CallListener.NONE;
    };
  }

  /** @return the calls since the last reset, in words, then starts counting afresh */
  String summaryAndReset(double seconds) {
    String summary = String.format("claimDue %d calls (%.1f entries each, %.1f ms each, busy %.0f%% of the run);"
            + " claims by key %d calls (%.1f entries each, %.1f ms each, busy %.0f%%);"
            + " transitions %d calls (%.1f each, %.1f ms each, busy %.0f%%)",
        claims.calls(), claims.perCall(), claims.msPerCall(), claims.busyPercent(seconds),
        byKey.calls(), byKey.perCall(), byKey.msPerCall(), byKey.busyPercent(seconds),
        results.calls(), results.perCall(), results.msPerCall(), results.busyPercent(seconds));
    List.of(claims, byKey, results).forEach(Tally::reset);
    return summary;
  }

  /** Calls of one kind: how many, how many entries they carried, how long they took. */
  private static final class Tally {
    private final LongAdder calls = new LongAdder();
    private final LongAdder elements = new LongAdder();
    private final LongAdder nanos = new LongAdder();

    /** Hears every call of the tally's kind: it keeps no state of its own, so one serves all. */
    private final CallListener listener = new CallListener() {
      @Override
      public void claimed(List<Claim> claimed, long took) {
        count(claimed.size(), took);
      }

      @Override
      public void transitioned(List<ClaimTransitionResult> written, long took) {
        count(written.size(), took);
      }

      @Override
      public void failed(RuntimeException failure, long took) {
        count(0, took);
      }
    };

    CallListener listener() {
      return listener;
    }

    private void count(int size, long took) {
      calls.increment();
      elements.add(size);
      nanos.add(took);
    }

    long calls() {
      return calls.sum();
    }

    double perCall() {
      return elements.sum() / (double) Math.max(1, calls.sum());
    }

    double msPerCall() {
      return nanos.sum() / (double) Math.max(1, calls.sum()) / 1e6;
    }

    double busyPercent(double seconds) {
      return 100 * nanos.sum() / 1e9 / seconds;
    }

    void reset() {
      calls.reset();
      elements.reset();
      nanos.reset();
    }
  }
}
