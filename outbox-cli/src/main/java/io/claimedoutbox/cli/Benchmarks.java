package io.claimedoutbox.cli;

import io.claimedoutbox.conformance.RawCompareAndSet;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The measurements behind {@code outbox bench}. Everything runs on one thread so that rates compare
 * the cost of one operation, not the backend's parallelism; a warm-up pass precedes each timed one.
 */
final class Benchmarks {

  private static final WorkerId WORKER = WorkerId.of("bench");
  private static final Duration LONG_LEASE = Duration.ofHours(1);
  private static final byte[] PAYLOAD = new byte[256];

  private Benchmarks() {}

  static BenchmarkResult run(String url, int operations, List<Integer> backlogs, int latencySamples, PrintStream log) {
    String label;
    double raw;
    double transitions;
    double claimDeliver;
    try (BackendSession session = Backends.open(url, Clock.systemUTC())) {
      label = session.label();
      log.println("bench " + label + ": raw compare-and-set …");
      raw = rawRate(session, operations);
      log.println("bench " + label + ": transitions …");
      transitions = transitionRate(session.store(), operations);
      log.println("bench " + label + ": claim + deliver …");
      claimDeliver = claimDeliverRate(session.store(), operations);
    }
    Map<Integer, LatencySummary> latencies = new LinkedHashMap<>();
    for (int backlog : backlogs) {
      try (BackendSession session = Backends.open(url, Clock.systemUTC())) {
        log.printf("bench %s: claim latency with a backlog of %,d …%n", label, backlog);
        latencies.put(backlog, claimLatency(session.store(), backlog, latencySamples));
      }
    }
    return new BenchmarkResult(label, raw, transitions, claimDeliver, latencies);
  }

  private static double rawRate(BackendSession session, int operations) {
    try (RawCompareAndSet cas = session.rawCompareAndSet(operations)) {
      for (int key = 0; key < operations; key++) {
        cas.compareAndSet(key, 0);
      }
      long started = System.nanoTime();
      for (int key = 0; key < operations; key++) {
        cas.compareAndSet(key, 1);
      }
      return perSecond(operations, started);
    }
  }

  private static double transitionRate(OutboxClaimOutcomeStore store, int operations) {
    append(store, operations);
    List<Claim> claims = claimAll(store, operations);
    int warmUp = Math.min(claims.size() / 10, 200);
    claims.subList(0, warmUp).forEach(claim -> store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()));
    long started = System.nanoTime();
    claims.subList(warmUp, claims.size()).forEach(claim -> store.tryMarkClaimDelivered(claim, DeliveryReceipt.none()));
    return perSecond(claims.size() - warmUp, started);
  }

  private static double claimDeliverRate(OutboxClaimOutcomeStore store, int operations) {
    append(store, operations);
    long started = System.nanoTime();
    int done = 0;
    List<Claim> batch;
    while (!(batch = store.claimDue(WORKER, 10, LONG_LEASE)).isEmpty()) {
      for (Claim claim : batch) {
        store.tryMarkClaimDelivered(claim, DeliveryReceipt.none());
        done++;
      }
    }
    return perSecond(done, started);
  }

  private static LatencySummary claimLatency(OutboxClaimOutcomeStore store, int backlog, int samples) {
    append(store, backlog);
    for (int i = 0; i < Math.min(20, samples); i++) {
      store.claimDue(WORKER, 1, LONG_LEASE);
    }
    List<Long> nanos = new ArrayList<>(samples);
    for (int i = 0; i < samples; i++) {
      long started = System.nanoTime();
      store.claimDue(WORKER, 1, LONG_LEASE);
      nanos.add(System.nanoTime() - started);
    }
    return LatencySummary.ofNanos(nanos);
  }

  private static void append(OutboxClaimOutcomeStore store, int count) {
    for (int first = 0; first < count; first += 1000) {
      store.appendAll(IntStream.range(first, Math.min(count, first + 1000))
          .mapToObj(i -> OutboxMessage.of("bench", PAYLOAD))
          .toList());
    }
  }

  private static List<Claim> claimAll(OutboxClaimOutcomeStore store, int count) {
    List<Claim> claims = new ArrayList<>(count);
    List<Claim> batch;
    while (claims.size() < count && !(batch = store.claimDue(WORKER, 100, LONG_LEASE)).isEmpty()) {
      claims.addAll(batch);
    }
    return claims;
  }

  private static double perSecond(int operations, long startedNanos) {
    return operations / ((System.nanoTime() - startedNanos) / 1e9);
  }
}
