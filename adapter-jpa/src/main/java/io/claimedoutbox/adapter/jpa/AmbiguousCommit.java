package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A commit whose acknowledgement was lost: the write may or may not have landed. Decided only from
 * what the row proves, never guessed.
 */
record AmbiguousCommit(
    Claim claim, TransitionKind kind, OutboxEntry evaluated, WriteStamp stamp, RuntimeException cause) {

  ClaimTransitionResult resolve(Supplier<Optional<OutboxEntry>> reread) {
    Optional<OutboxEntry> row;
    try {
      row = reread.get();
    } catch (RuntimeException unreachable) {
      cause.addSuppressed(unreachable);
      throw new TransitionOutcomeUnknownException(claim, kind, stamp, cause);
    }
    if (row.isEmpty()) {
      return ClaimTransitionResult.missing(claim);
    }
    OutboxEntry now = row.get();
    long nextRevision = evaluated.revision() + 1;
    if (now.revision() == nextRevision && now.lastWriteStamp().equals(Optional.of(stamp))) {
      return ClaimTransitionResult.applied(now);
    }
    if (now.revision() == nextRevision) {
      return ClaimTransitionResult.concurrencyLost(now);
    }
    if (now.revision() == evaluated.revision()) {
      throw new OutboxStoreException("commit of " + kind + " for outbox entry " + claim.entryId()
          + " failed and the row is unchanged: nothing was written", cause);
    }
    throw new TransitionOutcomeUnknownException(claim, kind, stamp, cause);
  }
}
