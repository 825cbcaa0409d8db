package io.claimedoutbox.domain;

import java.time.Instant;
import java.util.Optional;

/**
 * Asks for {@link TransitionKind#DELIVERED}: the message was emitted.
 *
 * @param reference what the downstream system returned (an offset, a message id), if anything;
 *     stored cut to {@value OutboxEntry#MAX_NOTE_LENGTH} characters
 */
public record DeliveryReceipt(Optional<String> reference) implements TransitionRequest {

  /**
   * Validates the receipt.
   *
   * @throws NullPointerException if {@code reference} is null
   */
  public DeliveryReceipt {
    Arguments.requireNonNull(reference, "reference");
  }

  /** @return a receipt without a downstream reference */
  public static DeliveryReceipt none() {
    return new DeliveryReceipt(Optional.empty());
  }

  /**
   * @param reference the downstream reference
   * @return a receipt carrying {@code reference}
   */
  public static DeliveryReceipt of(String reference) {
    return new DeliveryReceipt(Optional.of(Arguments.requireNonNull(reference, "reference")));
  }

  @Override
  public TransitionKind kind() {
    return TransitionKind.DELIVERED;
  }

  @Override
  public OutboxEntry applyTo(OutboxEntry claimed, Instant now, WriteStamp stamp) {
    return TransitionRequest.requireClaimed(claimed, kind()).toBuilder()
        .status(EntryStatus.DELIVERED)
        .currentClaim(null)
        .deliveryReceipt(reference.orElse(null))
        .updatedAt(now)
        .nextRevision(stamp)
        .build();
  }
}
