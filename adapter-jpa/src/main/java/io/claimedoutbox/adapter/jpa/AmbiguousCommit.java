package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A write whose acknowledgement was lost: it may or may not have landed. Decided only from what
 * the row read again proves, never guessed:
 *
 * <ul>
 *   <li>no row: {@code MISSING};
 *   <li>this attempt's stamp: {@code APPLIED} with the row;
 *   <li>the revision the write was checked against: nothing was written ({@link OutboxStoreException});
 *   <li>the next revision under another stamp: another write won, so this one (checked against the
 *       older revision) never landed; the row decides the outcome as it would have before a write
 *       ({@code TERMINAL} or {@code STALE_CLAIM}), or, when the claim still holds it, nothing was written;
 *   <li>anything later, or no answer: {@link TransitionOutcomeUnknownException}, carrying the claim
 *       and the stamp.
 * </ul>
 */
record AmbiguousCommit(
    Claim claim, TransitionKind kind, OutboxEntry evaluated, WriteStamp stamp, Exception cause) {

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
    if (now.lastWriteStamp().equals(Optional.of(stamp))) {
      return ClaimTransitionResult.applied(now);
    }
    if (now.revision() == evaluated.revision()) {
      throw nothingWritten();
    }
    if (now.revision() == evaluated.revision() + 1) {
      return ClaimFence.decideBeforeWrite(claim, row).orElseThrow(this::nothingWritten);
    }
    throw new TransitionOutcomeUnknownException(claim, kind, stamp, cause);
  }

  private OutboxStoreException nothingWritten() {
    return new OutboxStoreException("write of " + kind + " for outbox entry " + claim.entryId()
        + " failed and the row proves it did not land: nothing was written", cause);
  }
}
