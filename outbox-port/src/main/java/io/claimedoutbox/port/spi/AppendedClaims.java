package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Which entries handed to {@link io.claimedoutbox.port.OutboxClaimStore#claimAppended} a store
 * may try to claim: those still as appended ({@code PENDING} at revision 1), due at {@code now},
 * and without an ordering key (whether a keyed entry is its key's first is the due query's
 * decision). The store then writes each claim conditioned on revision 1.
 */
public final class AppendedClaims {

  private AppendedClaims() {}

  /**
   * @param appended the entries as appended
   * @param now the store's time
   * @return the entries to try, in the order given
   */
  public static List<OutboxEntry> candidates(List<OutboxEntry> appended, Instant now) {
    List<OutboxEntry> candidates = new ArrayList<>(appended.size());
    for (OutboxEntry entry : appended) {
      if (entry.status() == EntryStatus.PENDING && entry.revision() == 1 && entry.isDue(now)
          && entry.message().orderingKey().isEmpty()) {
        candidates.add(entry);
      }
    }
    return candidates;
  }
}
