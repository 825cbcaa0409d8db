package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.TransitionKind;

/**
 * A test seam: called by a store after it evaluated a transition as writable and before it writes,
 * so a test can stage a competing write at exactly that point instead of racing threads. Stores
 * that evaluate and write atomically never call it. Production code leaves it at {@link #NONE}.
 */
@FunctionalInterface
public interface TransitionWriteHook {

  /** The hook that does nothing. */
  TransitionWriteHook NONE = (claim, transition) -> { };

  /**
   * Runs between evaluation and write, on the caller's thread.
   *
   * @param claim the claim the transition is asked under
   * @param transition which transition is about to be written
   */
  void beforeWrite(Claim claim, TransitionKind transition);
}
