package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;

/**
 * One claim the drain holds, from the claim until its result is recorded: the newest claim (after
 * renewals), its message, and the handler's thread while one runs.
 *
 * <p>A lease renewal and the recording of the result must never overlap (two writes under one claim
 * at once would make one lose to the other): {@link #beginRenewal} fails once the result is on its
 * way, and {@link #finish} waits for a renewal in progress to end.
 */
final class InFlightEntry {

  private enum State { WAITING, RUNNING, RENEWING, FINISHED }

  final ClaimedMessage message;
  private volatile Claim claim;
  private State state = State.WAITING;
  private State stateBeforeRenewal;
  private Thread handlerThread;

  InFlightEntry(Claim claim) {
    this.claim = claim;
    this.message = new ClaimedMessage(claim);
  }

  Claim claim() {
    return claim;
  }

  synchronized boolean beginRenewal() {
    if (state == State.FINISHED || state == State.RENEWING || message.isClaimLost()) {
      return false;
    }
    stateBeforeRenewal = state;
    state = State.RENEWING;
    return true;
  }

  /** Ends a renewal: with a claim the lease was renewed, without one the claim is lost. */
  synchronized void endRenewal(Claim renewed) {
    if (renewed != null) {
      claim = renewed;
    } else {
      markLost();
    }
    state = stateBeforeRenewal;
    notifyAll();
  }

  /**
   * The handler is about to run on this thread: waits for a renewal in progress to end.
   *
   * @return {@code false} when the claim was lost meanwhile, so the handler must not run
   */
  synchronized boolean start() {
    awaitNoRenewal();
    if (message.isClaimLost()) {
      return false;
    }
    state = State.RUNNING;
    handlerThread = Thread.currentThread();
    return true;
  }

  /** The handler returned: waits for a renewal in progress, then no renewal starts any more. */
  synchronized void finish() {
    handlerThread = null;
    Thread.interrupted();
    awaitNoRenewal();
    state = State.FINISHED;
  }

  private void awaitNoRenewal() {
    boolean interrupted = false;
    while (state == State.RENEWING) {
      try {
        wait();
      } catch (InterruptedException stop) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The claim is lost: its result is never recorded; a running handler is interrupted. */
  synchronized void markLost() {
    message.markClaimLost();
    interruptHandler();
  }

  synchronized void interruptHandler() {
    if (handlerThread != null) {
      handlerThread.interrupt();
    }
  }
}
