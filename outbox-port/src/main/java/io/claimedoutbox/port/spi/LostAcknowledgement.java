package io.claimedoutbox.port.spi;

import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * How every adapter decides a transition whose write was sent but whose answer was lost (the
 * connection broke after the request left): only from what the entry, read again, proves.
 *
 * <ul>
 *   <li>no entry: {@code MISSING};
 *   <li>the entry carries this attempt's write stamp: {@code APPLIED} with it;
 *   <li>still held by the claim, at the revision the write was based on (or, for a releasing
 *       transition, at any revision: a delivery, failure or dead letter that landed would have
 *       released it): the write did not land, {@link OutboxStoreException} ("nothing was written");
 *   <li>another writer's stamp at the very next revision: the write did not land (it was conditioned
 *       on an older state); an atomic store answers what its evaluation would have answered after
 *       that write ({@code TERMINAL} or {@code STALE_CLAIM}), a store that evaluates before it
 *       writes answers {@code CONCURRENCY_LOST} with the winner;
 *   <li>anything else, or no answer to the read: {@link TransitionOutcomeUnknownException}.
 * </ul>
 *
 * <p>Never a guess: {@code APPLIED} only with the stamp in hand, "nothing written" only when the
 * entry proves it.
 */
public final class LostAcknowledgement {

  private LostAcknowledgement() {}

  /**
   * Decides the lost write.
   *
   * @param claim the claim the write was asked under
   * @param kind the transition
   * @param stamp the write's stamp
   * @param basedOn the revision the write was based on: the entry it was checked against, or the
   *     claim's snapshot when the write was conditioned on the claim only
   * @param atomic whether the store decides and writes in one step ({@link io.claimedoutbox.port.StoreCapability#ATOMIC_EVALUATION})
   * @param reread reads the entry again; may throw
   * @param cause the failure that lost the answer
   * @return the decided result
   * @throws OutboxStoreException when the entry proves nothing was written
   * @throws TransitionOutcomeUnknownException when the entry cannot tell, or cannot be read
   */
  public static ClaimTransitionResult resolve(Claim claim, TransitionKind kind, WriteStamp stamp, long basedOn,
      boolean atomic, Supplier<Optional<OutboxEntry>> reread, RuntimeException cause) {
    Optional<OutboxEntry> row;
    try {
      row = reread.get();
    } catch (RuntimeException unreadable) {
      cause.addSuppressed(unreadable);
      throw new TransitionOutcomeUnknownException(claim, kind, stamp, cause);
    }
    if (row.isEmpty()) {
      return ClaimTransitionResult.missing(claim);
    }
    OutboxEntry now = row.get();
    if (now.lastWriteStamp().equals(Optional.of(stamp))) {
      return ClaimTransitionResult.applied(now);
    }
    boolean held = ClaimFence.isHeldBy(now, claim);
    boolean releasing = kind != TransitionKind.SAVE;
    boolean notLanded = now.revision() == basedOn || now.revision() == basedOn + 1 || (held && releasing);
    if (!notLanded) {
      throw new TransitionOutcomeUnknownException(claim, kind, stamp, cause);
    }
    if (held) {
      throw new OutboxStoreException("the answer to " + kind + " of outbox entry " + claim.entryId()
          + " was lost and the entry proves the write did not land: nothing was written", cause);
    }
    return atomic
        ? ClaimFence.decideBeforeWrite(claim, row).orElseThrow()
        : ClaimTransitionResult.concurrencyLost(now);
  }
}
