package io.claimedoutbox.domain;

import java.time.Instant;

/**
 * What a claim holder asks a store to write. Each kind knows the entry it produces, so every
 * store applies exactly the same state machine.
 */
public sealed interface TransitionRequest
    permits DeliveryReceipt, RetryableFailure, DeadLetter, LeaseRenewal {

  /**
   * Which transition this is.
   *
   * @return the kind
   */
  TransitionKind kind();

  /**
   * The entry this transition writes, one revision after {@code claimed}.
   *
   * @param claimed the durable entry, {@code CLAIMED} under the caller's claim
   * @param now the write time
   * @param stamp the write's stamp
   * @return the entry to store
   * @throws IllegalStateException if {@code claimed} is not {@code CLAIMED}
   */
  OutboxEntry applyTo(OutboxEntry claimed, Instant now, WriteStamp stamp);

  /**
   * Throws unless {@code entry} is {@code CLAIMED}: the state machine has no transition from any
   * other status.
   *
   * @param entry the entry a transition is applied to
   * @param kind the transition
   * @return {@code entry}
   */
  static OutboxEntry requireClaimed(OutboxEntry entry, TransitionKind kind) {
    Arguments.requireNonNull(entry, "claimed");
    if (entry.status() != EntryStatus.CLAIMED) {
      throw new IllegalStateException(
          "cannot apply " + kind + " to entry " + entry.id() + " in status " + entry.status());
    }
    return entry;
  }
}
