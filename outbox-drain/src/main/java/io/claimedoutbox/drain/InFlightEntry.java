package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Claim;

/**
 * One claim being handled: the newest claim (after renewals), its message, and the handler's thread.
 * Its monitor keeps a lease renewal and the recording of the result from overlapping: two writes
 * under the same claim at once would make one of them lose to the other.
 */
final class InFlightEntry {

  final ClaimedMessage message;
  private volatile Claim claim;
  private volatile boolean finished;
  private Thread handlerThread;

  InFlightEntry(Claim claim) {
    this.claim = claim;
    this.message = new ClaimedMessage(claim);
  }

  Claim claim() {
    return claim;
  }

  void renewed(Claim renewedClaim) {
    this.claim = renewedClaim;
  }

  boolean isFinished() {
    return finished;
  }

  synchronized void finish() {
    finished = true;
  }

  synchronized void handlerStarted() {
    handlerThread = Thread.currentThread();
  }

  synchronized void handlerEnded() {
    handlerThread = null;
    Thread.interrupted();
  }

  /** Interrupts the handler if it is still running; with {@code lost}, marks the claim lost first. */
  synchronized void interruptHandler(boolean lost) {
    if (lost) {
      message.markClaimLost();
    }
    if (handlerThread != null) {
      handlerThread.interrupt();
    }
  }
}
