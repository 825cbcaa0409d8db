package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionOutcome;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Everything a concurrent run observed — every claim handed out, every transition result, every
 * delete — and the checks that a correct store's history passes whatever the interleaving.
 * Recording is thread-safe; checking happens after the run.
 */
public final class TransitionHistory {

  /**
   * One transition attempt and what the store answered.
   *
   * @param claim the claim it ran under
   * @param kind the transition
   * @param result the answer
   * @param invokedAt {@link #tick()} just before the call
   * @param returnedAt {@link #tick()} just after it returned
   */
  public record Attempt(Claim claim, TransitionKind kind, ClaimTransitionResult result, long invokedAt,
      long returnedAt) {}

  private final ConcurrentLinkedQueue<Claim> claims = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<EntryId> deletions = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
  private final Map<UUID, Long> claimReturnedAt = new ConcurrentHashMap<>();
  private final AtomicLong sequence = new AtomicLong();

  /**
   * The history's own clock: a number larger than every one handed out before, on any thread. Calls
   * are ordered by it where the store's clock cannot order them (a claim's time is read before the
   * store locks, so it may precede a write the claim in fact followed).
   *
   * @return the next number
   */
  public long tick() {
    return sequence.incrementAndGet();
  }

  /** @param claimed claims a claimDue call returned; record them as soon as it returned */
  public void recordClaims(List<Claim> claimed) {
    long returnedAt = tick();
    claimed.forEach(claim -> claimReturnedAt.put(claim.token().nonce(), returnedAt));
    claims.addAll(claimed);
  }

  /** @param attempt a transition and its result */
  public void recordAttempt(Attempt attempt) {
    attempts.add(attempt);
  }

  /** @param id an entry a delete call removed (it returned {@code true}) */
  public void recordDeletion(EntryId id) {
    deletions.add(id);
  }

  /** @param failure a worker that stopped on an exception, and why */
  public void recordFailure(String failure) {
    failures.add(failure);
  }

  /** @return how many claims were handed out */
  public int claimCount() {
    return claims.size();
  }

  /** @return how many claims re-claimed an entry (generation above 1) */
  public long reclaimCount() {
    return claims.stream().filter(claim -> claim.token().generation() > 1).count();
  }

  /** @return how many transition results were APPLIED (writes this history's callers made) */
  public long appliedCount() {
    return attempts.stream().filter(attempt -> attempt.result().isApplied()).count();
  }

  /** @return how many entries an APPLIED delivery or dead-lettering has finished so far */
  public long finishedEntryCount() {
    return attempts.stream()
        .filter(attempt -> attempt.result().isApplied() && attempt.result().entry().status().isTerminal())
        .map(attempt -> attempt.claim().entryId())
        .distinct()
        .count();
  }

  /** @return the number of transition results per transition kind and outcome */
  public Map<TransitionKind, Map<ClaimTransitionOutcome, Integer>> outcomesByTransition() {
    Map<TransitionKind, Map<ClaimTransitionOutcome, Integer>> table = new EnumMap<>(TransitionKind.class);
    attempts.forEach(attempt -> table
        .computeIfAbsent(attempt.kind(), kind -> new EnumMap<>(ClaimTransitionOutcome.class))
        .merge(attempt.result().outcome(), 1, Integer::sum));
    return table;
  }

  /** @return the number of transition results per outcome */
  public Map<ClaimTransitionOutcome, Integer> outcomeCounts() {
    Map<ClaimTransitionOutcome, Integer> counts = new EnumMap<>(ClaimTransitionOutcome.class);
    attempts.forEach(attempt -> counts.merge(attempt.result().outcome(), 1, Integer::sum));
    return counts;
  }

  /**
   * Checks the history against the final stored state.
   *
   * @param appended every entry appended before the run
   * @param finalState reads an entry as stored after the run
   * @param atomicStore whether the store declares atomic evaluation
   * @return every violation found, empty for a consistent history
   */
  public List<String> violations(
      List<EntryId> appended, Function<EntryId, Optional<OutboxEntry>> finalState, boolean atomicStore) {
    List<String> found = new ArrayList<>(failures);
    Map<EntryId, List<Claim>> claimsByEntry = groupClaims();
    Map<EntryId, List<Attempt>> appliedByEntry = new HashMap<>();
    for (Attempt attempt : attempts) {
      if (atomicStore && attempt.result().outcome() == ClaimTransitionOutcome.CONCURRENCY_LOST) {
        found.add("atomic store reported CONCURRENCY_LOST: " + attempt);
      }
      if (attempt.result().isApplied()) {
        appliedByEntry.computeIfAbsent(attempt.claim().entryId(), id -> new ArrayList<>()).add(attempt);
      }
    }
    checkTokensUnique(found);
    Map<EntryId, Long> deletedCounts = new HashMap<>();
    deletions.forEach(id -> deletedCounts.merge(id, 1L, Long::sum));
    for (EntryId id : appended) {
      List<Claim> entryClaims = claimsByEntry.getOrDefault(id, List.of());
      List<Attempt> applied = appliedByEntry.getOrDefault(id, List.of());
      checkRevisionsDistinct(id, entryClaims, applied, found);
      checkClaimsNeverOverlap(id, entryClaims, applied, found);
      checkTerminalAttribution(id, applied, finalState.apply(id),
          deletedCounts.getOrDefault(id, 0L), found);
    }
    checkOrderingKeys(appended, finalState, claimsByEntry, appliedByEntry, found);
    return found;
  }

  /**
   * Of two entries of one ordering key, appended one after the other (deleted ones left out), no
   * claim of the later one may return, and no delivery of it may be APPLIED, before the earlier one's
   * terminal write was even invoked: otherwise both were in flight at once, or the later one was
   * delivered first. Ordered by {@link #tick()}, not by the store's clock.
   */
  private void checkOrderingKeys(List<EntryId> appended, Function<EntryId, Optional<OutboxEntry>> finalState,
      Map<EntryId, List<Claim>> claimsByEntry, Map<EntryId, List<Attempt>> appliedByEntry, List<String> found) {
    Map<String, List<EntryId>> byKey = new HashMap<>();
    for (EntryId id : appended) {
      finalState.apply(id).flatMap(entry -> entry.message().orderingKey())
          .ifPresent(key -> byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(id));
    }
    byKey.forEach((key, line) -> {
      for (int i = 1; i < line.size(); i++) {
        EntryId earlier = line.get(i - 1);
        EntryId later = line.get(i);
        List<Attempt> finishing = appliedByEntry.getOrDefault(earlier, List.of()).stream()
            .filter(attempt -> attempt.result().entry().status().isTerminal()).toList();
        if (finishing.size() != 1) {
          continue;
        }
        long finishedFrom = finishing.get(0).invokedAt();
        for (Claim claim : claimsByEntry.getOrDefault(later, List.of())) {
          if (claimReturnedAt.getOrDefault(claim.token().nonce(), Long.MAX_VALUE) < finishedFrom) {
            found.add("key " + key + ": " + later + " was claimed by " + claim.owner() + " before the terminal write"
                + " of the earlier " + earlier + " was even sent (two entries of one key in flight)");
          }
        }
        for (Attempt delivery : appliedByEntry.getOrDefault(later, List.of())) {
          if (delivery.kind() == TransitionKind.DELIVERED && delivery.returnedAt() < finishedFrom) {
            found.add("key " + key + ": " + later + " was delivered before the earlier " + earlier + " finished");
          }
        }
      }
    });
  }

  private Map<EntryId, List<Claim>> groupClaims() {
    Map<EntryId, List<Claim>> byEntry = new HashMap<>();
    claims.forEach(claim -> byEntry.computeIfAbsent(claim.entryId(), id -> new ArrayList<>()).add(claim));
    byEntry.values().forEach(list -> list.sort(Comparator.comparingLong(c -> c.snapshot().revision())));
    return byEntry;
  }

  private void checkTokensUnique(List<String> found) {
    Set<UUID> nonces = new HashSet<>();
    for (Claim claim : claims) {
      if (!nonces.add(claim.token().nonce())) {
        found.add("claim token handed out twice: " + claim.token() + " for " + claim.entryId());
      }
    }
  }

  private static void checkRevisionsDistinct(
      EntryId id, List<Claim> entryClaims, List<Attempt> applied, List<String> found) {
    Map<Long, String> writers = new HashMap<>();
    entryClaims.forEach(claim -> {
      String writer = "claim " + claim.token() + " by " + claim.owner() + " at " + claim.claimedAt();
      String earlier = writers.putIfAbsent(claim.snapshot().revision(), writer);
      if (earlier != null) {
        found.add(id + ": two writes reported revision " + claim.snapshot().revision() + ": " + earlier + " and " + writer);
      }
    });
    applied.forEach(attempt -> {
      String writer = attempt.kind() + " APPLIED under claim " + attempt.claim().token() + " by "
          + attempt.claim().owner() + ", wrote " + attempt.result().entry();
      String earlier = writers.putIfAbsent(attempt.result().entry().revision(), writer);
      if (earlier != null) {
        found.add(id + ": two writes reported revision " + attempt.result().entry().revision() + ": " + earlier
            + " and " + writer);
      }
    });
    for (int i = 1; i < entryClaims.size(); i++) {
      long previous = entryClaims.get(i - 1).token().generation();
      long next = entryClaims.get(i).token().generation();
      if (next <= previous) {
        found.add(id + ": claim generations do not increase with revisions: " + previous + " then " + next);
      }
    }
  }

  private static void checkClaimsNeverOverlap(
      EntryId id, List<Claim> entryClaims, List<Attempt> applied, List<String> found) {
    for (int i = 0; i < entryClaims.size(); i++) {
      Claim claim = entryClaims.get(i);
      long claimRevision = claim.snapshot().revision();
      Optional<Claim> next = i + 1 < entryClaims.size() ? Optional.of(entryClaims.get(i + 1)) : Optional.empty();
      Instant leaseEnd = claim.leaseUntil();
      boolean released = false;
      boolean finished = false;
      for (Attempt attempt : applied) {
        if (!attempt.claim().token().equals(claim.token())) {
          continue;
        }
        long written = attempt.result().entry().revision();
        if (written <= claimRevision || next.map(n -> written > n.snapshot().revision()).orElse(false)) {
          found.add(id + ": " + attempt.kind() + " under claim " + claim.token() + " was APPLIED at"
              + " revision " + written + ", outside the claim's own lifetime (two live claims)");
        }
        if (attempt.kind() == TransitionKind.SAVE) {
          leaseEnd = max(leaseEnd, attempt.result().entry().currentClaim().orElseThrow().leaseUntil());
        } else {
          released = true;
          finished |= attempt.result().entry().status().isTerminal();
        }
      }
      if (next.isPresent() && finished) {
        found.add(id + ": claimed again by " + next.get().owner() + " after claim " + claim.token()
            + " finished it");
      }
      if (next.isPresent() && !released && next.get().claimedAt().isBefore(leaseEnd)) {
        found.add(id + ": claim " + next.get().token() + " by " + next.get().owner() + " at "
            + next.get().claimedAt() + " while claim " + claim.token() + " by " + claim.owner()
            + " was live until " + leaseEnd + " (two live claims)");
      }
    }
  }

  private static void checkTerminalAttribution(EntryId id, List<Attempt> applied,
      Optional<OutboxEntry> stored, long deletions, List<String> found) {
    List<Attempt> terminalWrites = applied.stream()
        .filter(attempt -> attempt.result().entry().status().isTerminal())
        .toList();
    if (terminalWrites.size() > 1) {
      found.add(id + ": " + terminalWrites.size() + " APPLIED terminal writes: " + terminalWrites);
    }
    if (deletions > 1) {
      found.add(id + ": deleted " + deletions + " times");
    }
    if (stored.isEmpty()) {
      if (deletions == 0) {
        found.add(id + ": lost — appended, never deleted, but no longer stored");
      }
      return;
    }
    OutboxEntry entry = stored.get();
    if (deletions > 0) {
      found.add(id + ": delete reported success but the row is still stored: " + entry);
    }
    if (!entry.status().isTerminal()) {
      found.add(id + ": not finished after the final drain: " + entry);
    } else if (terminalWrites.size() != 1) {
      found.add(id + ": stored " + entry.status() + " but " + terminalWrites.size()
          + " APPLIED terminal results attribute it");
    } else if (!terminalWrites.get(0).result().entry().equals(entry)) {
      found.add(id + ": stored terminal entry " + entry + " differs from its APPLIED result "
          + terminalWrites.get(0).result().entry());
    }
    if (entry.status() == EntryStatus.CLAIMED) {
      found.add(id + ": still CLAIMED after the final drain");
    }
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }
}
