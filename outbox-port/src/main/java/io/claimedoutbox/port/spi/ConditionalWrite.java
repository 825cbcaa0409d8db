package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;
import java.util.List;

/**
 * One write {@link TransitionKernel} asks of {@link ConditionalWrites}: store {@code next} only
 * where the stored entry is still at {@code basis}'s revision and held under {@code claim}.
 *
 * <p>Every write raises the revision, so an entry at {@code basis.revision()} <em>is</em>
 * {@code basis}; a backend that also compares the claim's status, owner and token (as the SQL and
 * MongoDB adapters do) never overwrites an entry damaged by hand at the same revision.
 *
 * @param claim the claim the transition is asked under
 * @param kind the transition, for messages
 * @param basis the entry the next state was computed from: the claim's snapshot, or the entry as
 *     read again after the holder's own write moved it on
 * @param next the entry to store: same id, a higher revision, this attempt's write stamp
 */
public record ConditionalWrite(Claim claim, TransitionKind kind, OutboxEntry basis, OutboxEntry next) {

  /** Checks that the three name one entry and that {@code next} carries a write stamp. */
  public ConditionalWrite {
    Arguments.requireNonNull(claim, "claim");
    Arguments.requireNonNull(kind, "kind");
    Arguments.requireNonNull(basis, "basis");
    Arguments.requireNonNull(next, "next");
    if (!basis.id().equals(claim.entryId()) || !next.id().equals(claim.entryId())) {
      throw new IllegalArgumentException("basis and next must be entry " + claim.entryId());
    }
    if (next.lastWriteStamp().isEmpty()) {
      throw new IllegalArgumentException("next must carry the attempt's write stamp");
    }
  }

  /** @return the entry written */
  public EntryId entryId() {
    return claim.entryId();
  }

  /** @return the revision the stored entry must still be at */
  public long expectedRevision() {
    return basis.revision();
  }

  /** @return the stamp that proves, when read back, that this write landed */
  public WriteStamp stamp() {
    return next.lastWriteStamp().orElseThrow();
  }

  /**
   * What a call writes, for failure messages: {@code DELIVERED of e-1}, or
   * {@code DELIVERED of e-1 and 4 more}.
   *
   * @param writes at least one
   * @return the description
   */
  public static String describe(List<ConditionalWrite> writes) {
    ConditionalWrite first = writes.get(0);
    return first.kind() + " of " + first.entryId() + (writes.size() > 1 ? " and " + (writes.size() - 1) + " more" : "");
  }
}
