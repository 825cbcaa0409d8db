package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.Instants;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The claims, written once over a backend's {@link ClaimStorage}: read the candidates, take the
 * domain's claim step for each ({@link OutboxEntry#claimedBy}, one write stamp for the call), write
 * them all conditioned on the revisions read, and keep those written. An answer the backend did not
 * give ({@link WriteAnswer#UNSAID}) is settled by reading the entry in the same unit: the claim is
 * the caller's exactly when the entry carries this call's stamp, which no other write can carry.
 *
 * <p>Arguments are checked before this is reached ({@link KernelOutboxStore}). Thread-safe when the
 * storage is.
 */
public final class ClaimKernel {

  private final ClaimStorage storage;
  private final Clock clock;

  /**
   * @param storage the backend's primitives
   * @param clock the store's time (the database's when store time is on)
   */
  public ClaimKernel(ClaimStorage storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
  }

  /**
   * Claims the oldest due entries, as {@link io.claimedoutbox.port.OutboxClaimStore#claimDue} promises.
   *
   * @param worker who claims
   * @param maxEntries checked
   * @param maxPayloadBytes checked
   * @param lease checked
   * @return the claims, oldest due first
   */
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    Instant now = now();
    return storage.inUnit(ClaimStorage.Purpose.DUE, "claim due entries for " + worker,
        unit -> claim(unit, unit.dueCandidates(now, maxEntries, maxPayloadBytes), worker, now, lease));
  }

  /**
   * Claims the next entry of each key that is due, as
   * {@link io.claimedoutbox.port.OutboxClaimStore#claimNextOfKeys} promises: the heads the storage
   * {@linkplain ClaimStorage#rememberedHeads remembers}, and the others read; a remembered head that
   * could not be claimed is read afresh once, and its key claimed if its head has changed.
   *
   * @param worker who claims
   * @param keys checked, distinct, at least one
   * @param lease checked
   * @return at most one claim per key
   */
  public List<Claim> claimNextOfKeys(WorkerId worker, List<String> keys, Duration lease) {
    Instant now = now();
    String what = "claim the next entry of " + (keys.size() == 1 ? keys.get(0) : keys.size() + " ordering keys")
        + " for " + worker;
    Map<String, OutboxEntry> remembered = storage.rememberedHeads(keys);
    Map<String, OutboxEntry> heads = new HashMap<>(remembered);
    List<String> unknown = keys.stream().filter(key -> !remembered.containsKey(key)).toList();
    if (!unknown.isEmpty()) {
      heads.putAll(byKey(storage.firstUnfinishedOfKeys(unknown)));
    }
    List<Claim> claims = claimChosen(dueInKeyOrder(keys, heads, now), what, worker, now, lease);
    List<String> missed = rememberedButNotClaimed(remembered, claims, now);
    if (missed.isEmpty()) {
      return claims;
    }
    // a remembered head may have moved on since its key was released: such keys are read afresh, once
    Map<String, OutboxEntry> fresh = byKey(storage.firstUnfinishedOfKeys(missed));
    fresh.values().removeIf(head -> sameRevision(head, remembered.get(keyOf(head))));
    List<Claim> all = new ArrayList<>(claims);
    all.addAll(claimChosen(dueInKeyOrder(missed, fresh, now), what, worker, now, lease));
    return inKeyOrder(all, keys);
  }

  private static List<String> rememberedButNotClaimed(Map<String, OutboxEntry> remembered, List<Claim> claims,
      Instant now) {
    if (remembered.isEmpty()) {
      return List.of();
    }
    Set<String> claimedKeys = new HashSet<>();
    claims.forEach(claim -> claimedKeys.add(keyOf(claim.snapshot())));
    return remembered.entrySet().stream()
        .filter(head -> !claimedKeys.contains(head.getKey()) && head.getValue().isDue(now))
        .map(Map.Entry::getKey)
        .toList();
  }

  private static List<Claim> inKeyOrder(List<Claim> claims, List<String> keys) {
    Map<String, Integer> order = new HashMap<>();
    keys.forEach(key -> order.put(key, order.size()));
    List<Claim> sorted = new ArrayList<>(claims);
    sorted.sort(Comparator.comparingInt(claim -> order.get(keyOf(claim.snapshot()))));
    return sorted;
  }

  private static Map<String, OutboxEntry> byKey(List<OutboxEntry> heads) {
    Map<String, OutboxEntry> byKey = new HashMap<>();
    heads.forEach(head -> byKey.put(keyOf(head), head));
    return byKey;
  }

  private static List<OutboxEntry> dueInKeyOrder(List<String> keys, Map<String, OutboxEntry> heads, Instant now) {
    List<OutboxEntry> due = new ArrayList<>(heads.size());
    for (String key : keys) {
      OutboxEntry head = heads.get(key);
      if (head != null && head.isDue(now)) {
        due.add(head);
      }
    }
    return due;
  }

  private static boolean sameRevision(OutboxEntry read, OutboxEntry remembered) {
    return read.id().equals(remembered.id()) && read.revision() == remembered.revision();
  }

  private static String keyOf(OutboxEntry head) {
    return head.message().orderingKey().orElseThrow(
        () -> new IllegalStateException("bug: the head of a key has no ordering key: " + head.id()));
  }

  /**
   * Claims entries this JVM appended, as {@link io.claimedoutbox.port.OutboxClaimStore#claimAppended}
   * promises; nothing where the storage does not {@linkplain ClaimStorage#claimsAppended claim appended
   * entries}.
   *
   * @param worker who claims
   * @param appended checked, at least one
   * @param lease checked
   * @return the claims, in {@code appended}'s order
   */
  public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    if (!storage.claimsAppended()) {
      return List.of();
    }
    Instant now = now();
    return claimChosen(AppendedClaims.candidates(appended, now), "claim appended entries for " + worker, worker, now,
        lease);
  }

  private List<Claim> claimChosen(List<OutboxEntry> candidates, String what, WorkerId worker, Instant now,
      Duration lease) {
    if (candidates.isEmpty()) {
      return List.of();
    }
    return storage.inUnit(ClaimStorage.Purpose.CHOSEN, what, unit -> claim(unit, candidates, worker, now, lease));
  }

  private static List<Claim> claim(ClaimStorage.Unit unit, List<OutboxEntry> candidates, WorkerId worker,
      Instant now, Duration lease) {
    if (candidates.isEmpty()) {
      return List.of();
    }
    WriteStamp stamp = WriteStamp.fresh();
    List<ClaimWrite> writes = new ArrayList<>(candidates.size());
    for (OutboxEntry candidate : candidates) {
      writes.add(new ClaimWrite(candidate, candidate.claimedBy(worker, now, lease, stamp)));
    }
    List<WriteAnswer> answers = unit.writeClaims(writes);
    if (answers.size() != writes.size()) {
      throw new IllegalStateException("bug: " + answers.size() + " answers for " + writes.size() + " claims");
    }
    List<Claim> claims = new ArrayList<>(writes.size());
    for (int i = 0; i < writes.size(); i++) {
      OutboxEntry claimed = writes.get(i).claimed();
      if (answers.get(i) == WriteAnswer.WRITTEN || answers.get(i) == WriteAnswer.UNSAID && carries(unit, claimed)) {
        claims.add(Claim.of(claimed));
      }
    }
    return claims;
  }

  private static boolean carries(ClaimStorage.Unit unit, OutboxEntry claimed) {
    return unit.read(claimed.id()).flatMap(OutboxEntry::lastWriteStamp).equals(claimed.lastWriteStamp());
  }

  /** At the precision entries are stored with, so the due check and the stored times agree. */
  private Instant now() {
    return Instants.stored(clock.instant());
  }
}
