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
import java.util.List;

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
   * {@link io.claimedoutbox.port.OutboxClaimStore#claimNextOfKeys} promises.
   *
   * @param worker who claims
   * @param keys checked, distinct, at least one
   * @param lease checked
   * @return at most one claim per key
   */
  public List<Claim> claimNextOfKeys(WorkerId worker, List<String> keys, Duration lease) {
    Instant now = now();
    List<OutboxEntry> due = storage.firstUnfinishedOfKeys(keys).stream().filter(head -> head.isDue(now)).toList();
    String which = keys.size() == 1 ? keys.get(0) : keys.size() + " ordering keys";
    return claimChosen(due, "claim the next entry of " + which + " for " + worker, worker, now, lease);
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
