package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The suite's {@link TransitionWriteHook}: when armed, runs a competing write once, at the moment
 * the store has evaluated a transition and not yet written it. Disarms itself before running, so
 * the competing write (which goes through the same store) does not trigger it again.
 */
public final class StagedRace implements TransitionWriteHook {

  private final AtomicReference<Consumer<Claim>> armed = new AtomicReference<>();
  private final AtomicInteger fired = new AtomicInteger();

  /**
   * Arms the hook for the next transition evaluated as writable.
   *
   * @param competingWrite what another writer does at that moment
   */
  public void arm(Consumer<Claim> competingWrite) {
    armed.set(competingWrite);
  }

  /**
   * @return how many times a staged write ran
   */
  public int timesFired() {
    return fired.get();
  }

  @Override
  public void beforeWrite(Claim claim, TransitionKind transition) {
    Consumer<Claim> competingWrite = armed.getAndSet(null);
    if (competingWrite != null) {
      fired.incrementAndGet();
      competingWrite.accept(claim);
    }
  }
}
