package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.conformance.TransitionHistory;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.StoreCapability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Rule H1: many workers drain one outbox at once, with leases expiring mid-work and entries
 * deleted under them; the recorded history must be consistent. The interleaving is real and
 * random; the seed only fixes what each worker decides to do, and is printed for reproduction.
 */
public abstract class ConcurrentHistoryRules extends ConformanceTestBase {

  private static final int WORKERS = 8;
  private static final int ENTRIES = 1_000;
  private static final int MAX_ATTEMPTS = 4;
  private static final int IDLE_ROUNDS_BEFORE_STOP = 20;

  @Test
  void h1_randomizedConcurrentRunKeepsAConsistentHistory() throws Exception {
    long seed = Long.getLong("outbox.conformance.seed", System.nanoTime());
    List<EntryId> appended = appendEntries();
    TransitionHistory history = new TransitionHistory();

    ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int i = 0; i < WORKERS; i++) {
        Random random = new Random(seed + i);
        WorkerId worker = WorkerId.of("history-worker-" + i);
        running.add(pool.submit(() -> drain(worker, random, appended, history)));
      }
      for (Future<?> worker : running) {
        worker.get(10, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    finalDrain(history);

    boolean atomic = store.capabilities().contains(StoreCapability.ATOMIC_EVALUATION);
    List<String> violations = history.violations(appended, store::find, atomic);
    String replay = "seed " + seed + "; replay its random choices with -Doutbox.conformance.seed=" + seed;
    System.out.printf("H1 (stochastic: a pass is evidence, not proof) on %s: %s; %d claims (%d re-claims),"
        + " outcomes %s%n", fixture().backendName(), replay, history.claimCount(), history.reclaimCount(),
        history.outcomeCounts());
    RuleCheck.require(Rule.H1, violations.isEmpty(), () -> violations.size() + " violations (" + replay
        + "), first ones:" + System.lineSeparator() + "  "
        + String.join(System.lineSeparator() + "  ", violations.subList(0, Math.min(10, violations.size()))));
    RuleCheck.require(Rule.H1, history.reclaimCount() > 0,
        () -> "the run never re-claimed an expired lease, so it proved nothing about leases (" + replay + ")");
  }

  private List<EntryId> appendEntries() {
    List<EntryId> ids = new ArrayList<>();
    for (int batch = 0; batch < ENTRIES / 100; batch++) {
      int first = batch * 100;
      List<OutboxMessage> messages = IntStream.range(first, first + 100)
          .mapToObj(i -> i % 2 == 0 ? message("history-" + i).withOrderingKey("key-" + (i % 40))
              : message("history-" + i))
          .toList();
      store.appendAll(messages).forEach(entry -> ids.add(entry.id()));
    }
    return ids;
  }

  private void drain(WorkerId worker, Random random, List<EntryId> appended, TransitionHistory history) {
    try {
      drainUntilIdle(worker, random, appended, history);
    } catch (RuntimeException failure) {
      history.recordFailure(worker + " failed: " + failure);
    }
  }

  private void drainUntilIdle(
      WorkerId worker, Random random, List<EntryId> appended, TransitionHistory history) {
    int idleRounds = 0;
    while (idleRounds < IDLE_ROUNDS_BEFORE_STOP) {
      List<Claim> claims = store.claimDue(worker, 1 + random.nextInt(5), LEASE);
      history.recordClaims(claims);
      if (claims.isEmpty()) {
        idleRounds++;
        clock.advance(Duration.ofSeconds(5));
        continue;
      }
      idleRounds = 0;
      for (Claim claim : claims) {
        work(claim, random, appended, history);
      }
    }
  }

  private void work(Claim claim, Random random, List<EntryId> appended, TransitionHistory history) {
    int dice = random.nextInt(100);
    if (dice < 8) {
      clock.advance(LEASE.plusSeconds(1));
    }
    if (dice >= 97) {
      EntryId victim = random.nextBoolean() ? claim.entryId() : appended.get(random.nextInt(appended.size()));
      if (store.delete(victim)) {
        history.recordDeletion(victim);
      }
    }
    Claim current = claim;
    if (dice % 5 == 0) {
      ClaimTransitionResult saved = attempt(current, LeaseRenewal.withProgress(LEASE, "halfway"), history);
      if (!saved.isApplied()) {
        return;
      }
      current = Claim.of(saved.entry());
    }
    ClaimTransitionResult finished = attempt(current, finishing(current, random), history);
    Optional<String> key = current.snapshot().message().orderingKey();
    if (key.isPresent() && finished.isApplied() && finished.entry().status().isTerminal() && random.nextBoolean()
        && store.capabilities().contains(StoreCapability.CLAIM_BY_KEY)) {
      // Hand the key on as a drain does, by key, racing the other workers' claimDue; the batch form
      // with the key given twice, so the history checks both.
      List<Claim> next = random.nextBoolean() ? store.claimNextOfKey(claim.owner(), key.get(), LEASE)
          : store.claimNextOfKeys(claim.owner(), List.of(key.get(), key.get()), LEASE);
      history.recordClaims(next);
      for (Claim successor : next) {
        work(successor, random, appended, history);
      }
    }
  }

  private TransitionRequest finishing(Claim claim, Random random) {
    int dice = random.nextInt(100);
    if (claim.attempt() >= MAX_ATTEMPTS || dice < 5) {
      return new DeadLetter("gave up after " + claim.attempt() + " attempts");
    }
    if (dice < 75) {
      return DeliveryReceipt.of("receipt-" + claim.token().generation());
    }
    return new RetryableFailure(clock.instant().plusSeconds(random.nextInt(20)), "transient failure");
  }

  private ClaimTransitionResult attempt(Claim claim, TransitionRequest request, TransitionHistory history) {
    long invokedAt = history.tick();
    ClaimTransitionResult result = store.tryTransition(claim, request);
    history.recordAttempt(new TransitionHistory.Attempt(claim, request.kind(), result, invokedAt, history.tick()));
    return result;
  }

  private void finalDrain(TransitionHistory history) {
    WorkerId finisher = WorkerId.of("history-finisher");
    for (int round = 0; round < ENTRIES; round++) {
      clock.advance(Duration.ofHours(1));
      List<Claim> claims = store.claimDue(finisher, 100, LEASE);
      history.recordClaims(claims);
      if (claims.isEmpty()) {
        return;
      }
      claims.forEach(claim -> attempt(claim, DeliveryReceipt.of("final"), history));
    }
  }
}
