package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;

/**
 * One claim to write: the entry as read, and as claimed ({@link OutboxEntry#claimedBy}, computed by
 * {@link ClaimKernel}). A backend writes {@code claimed} only where the stored entry is still at the
 * revision of {@code candidate}; nothing else decides whether the claim is taken.
 *
 * @param candidate the entry as the backend read it
 * @param claimed the same entry as claimed, carrying the call's write stamp
 */
public record ClaimWrite(OutboxEntry candidate, OutboxEntry claimed) {

  /** Checks that both name one entry. */
  public ClaimWrite {
    Arguments.requireNonNull(candidate, "candidate");
    Arguments.requireNonNull(claimed, "claimed");
    if (!candidate.id().equals(claimed.id())) {
      throw new IllegalArgumentException("claimed must be " + candidate.id() + " but was " + claimed.id());
    }
  }

  /** @return the revision the stored entry must still be at */
  public long expectedRevision() {
    return candidate.revision();
  }
}
