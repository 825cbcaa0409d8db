package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Keeps the leases of held claims from running out: a claim whose lease ends within
 * {@code renewWhenRemaining} is renewed with {@code trySaveClaim} (all due renewals in one
 * batched call); a renewal that is not applied means the claim is lost (another worker took the
 * entry over), so its handler is interrupted and its result is never recorded. Claims waiting in
 * the buffer are kept the same way, and a waiting claim is checked once more just before its
 * handler starts, so no handler starts on a lease that is mostly spent.
 */
final class LeaseKeeper {

  private final OutboxClaimOutcomeStore store;
  private final DrainSettings settings;

  LeaseKeeper(OutboxClaimOutcomeStore store, DrainSettings settings) {
    this.store = store;
    this.settings = settings;
  }

  /** @return how many leases were renewed */
  int renew(Collection<InFlightEntry> held) {
    Instant now = settings.clock().instant();
    List<InFlightEntry> due = new ArrayList<>();
    for (InFlightEntry entry : held) {
      if (isRunningOut(entry, now) && entry.beginRenewal()) {
        due.add(entry);
      }
    }
    if (due.isEmpty()) {
      return 0;
    }
    List<ClaimTransitionResult> results;
    try {
      results = store.tryTransitionAll(due.stream()
          .map(entry -> new ClaimTransition(entry.claim(), LeaseRenewal.of(settings.lease())))
          .toList());
    } catch (RuntimeException failure) {
      due.forEach(entry -> entry.endRenewal(entry.claim()));
      throw failure;
    }
    int renewed = 0;
    for (int i = 0; i < due.size(); i++) {
      renewed += end(due.get(i), results.get(i));
    }
    return renewed;
  }

  /**
   * Renews a claim about to be handed to its handler if its lease is running out.
   *
   * @return {@code false} when the claim is lost
   */
  boolean freshBeforeStart(InFlightEntry entry) {
    renew(List.of(entry));
    return !entry.message.isClaimLost();
  }

  private boolean isRunningOut(InFlightEntry entry, Instant now) {
    Duration remaining = Duration.between(now, entry.claim().leaseUntil());
    return remaining.compareTo(settings.renewWhenRemaining()) <= 0;
  }

  private static int end(InFlightEntry entry, ClaimTransitionResult result) {
    if (result.isApplied()) {
      entry.endRenewal(Claim.of(result.entry()));
      return 1;
    }
    entry.endRenewal(null);
    return 0;
  }
}
