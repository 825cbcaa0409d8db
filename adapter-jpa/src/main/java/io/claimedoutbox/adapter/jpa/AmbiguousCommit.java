package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.LostAcknowledgement;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A write whose acknowledgement was lost (a commit or autocommit statement whose answer never came):
 * it may or may not have landed, and {@link LostAcknowledgement} decides from the row read again,
 * as every adapter does. The write was a compare-and-set on {@code evaluated}'s revision, and the
 * adapter decides and writes in one step.
 */
record AmbiguousCommit(
    Claim claim, TransitionKind kind, OutboxEntry evaluated, WriteStamp stamp, Exception cause) {

  ClaimTransitionResult resolve(Supplier<Optional<OutboxEntry>> reread) {
    RuntimeException failure = cause instanceof RuntimeException unchecked
        ? unchecked : JdbcAccess.failure(kind + " of " + claim.entryId(), cause);
    return LostAcknowledgement.resolve(claim, kind, stamp, evaluated.revision(), true, reread, failure);
  }
}
