package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** After {@link OutboxDrain#stop} returns, the application may close the store's pool: no call of the drain is running. */
@DisplayName("stop() returns only when no store call of the drain is running")
class StopWaitsForStoreCallsTest {

  /** Counts running calls; the first claim blocks until the test lets it go. */
  private static final class HeldClaimStore extends ForwardingOutboxStore {
    final AtomicInteger running = new AtomicInteger();
    final CountDownLatch claimEntered = new CountDownLatch(1);
    final CountDownLatch claimMayReturn = new CountDownLatch(1);

    HeldClaimStore(InMemoryOutboxStore delegate) {
      super(delegate);
    }

    private <T> T counted(Supplier<T> call) {
      running.incrementAndGet();
      try {
        return call.get();
      } finally {
        running.decrementAndGet();
      }
    }

    @Override
    public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
      return counted(() -> {
        List<Claim> claims = super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
        claimEntered.countDown();
        try {
          claimMayReturn.await();
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
        }
        return claims;
      });
    }

    @Override
    public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
      return counted(() -> super.tryTransition(claim, request));
    }

    @Override
    public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
      return counted(() -> super.tryTransitionAll(transitions));
    }
  }

  @Test
  @DisplayName("a claim running when stop is called: stop waits for it, its claims are released, then it returns")
  void stopWaitsForARunningClaim() throws InterruptedException {
    MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    InMemoryOutboxStore backing = new InMemoryOutboxStore(clock, TransitionWriteHook.NONE);
    HeldClaimStore store = new HeldClaimStore(backing);
    OutboxEntry entry = store.append(OutboxMessage.of("orders", new byte[] {1}));
    OutboxDrain drain = OutboxDrain.builder(store, message -> { })
        .workerId(WorkerId.of("drain-1")).clock(clock).build();
    drain.start();
    assertThat(store.claimEntered.await(1, TimeUnit.MINUTES)).as("the claim started").isTrue();

    AtomicInteger runningWhenStopReturned = new AtomicInteger(-1);
    Thread stopper = new Thread(() -> {
      drain.stop(Duration.ofSeconds(30));
      runningWhenStopReturned.set(store.running.get());
    });
    stopper.start();
    awaitBlockedOrDone(stopper);
    store.claimMayReturn.countDown();
    stopper.join(TimeUnit.MINUTES.toMillis(1));

    assertThat(stopper.isAlive()).as("stop returned").isFalse();
    assertThat(runningWhenStopReturned).as("store calls running when stop returned").hasValue(0);
    OutboxEntry after = backing.find(entry.id()).orElseThrow();
    assertThat(after.status()).as("the late claim was released, due at once for another worker")
        .isEqualTo(EntryStatus.FAILED);
    assertThat(after.isDue(clock.instant())).isTrue();
  }

  /** Until the stopping thread has finished or waits (for the claim, if stop is right); bounded. */
  private static void awaitBlockedOrDone(Thread stopper) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
    while (System.nanoTime() < deadline) {
      Thread.State state = stopper.getState();
      if (state == Thread.State.TERMINATED || state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING) {
        return;
      }
      stopper.join(1);
    }
  }
}
