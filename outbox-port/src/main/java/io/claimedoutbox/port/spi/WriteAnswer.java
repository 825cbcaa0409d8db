package io.claimedoutbox.port.spi;

/** What a backend answered for one {@link ConditionalWrite} of a completed call. */
public enum WriteAnswer {
  /** The entry was at the expected state and now holds the write. */
  WRITTEN,
  /** The entry was not at the expected state (or is gone): nothing was written to it. */
  NOT_WRITTEN,
  /**
   * The call completed but the backend does not say per element (a bulk write that reports only a
   * total, a driver's batch mode): {@link TransitionKernel} reads the entry and looks for the stamp.
   */
  UNSAID
}
