package io.claimedoutbox.drain;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.conformance.MutableClock;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A busy ordering key: every claim finds one entry of it, so every poll is short and the poller
 * would wait out its idle backoff after each entry. Finishing a keyed entry wakes it instead.
 */
@DisplayName("The drain: one ordering key moves without idle waits, in append order")
class OrderingKeyDrainTest {

  private static final int ENTRIES = 30;

  /** Counts the claims by due query and by key; hides CLAIM_BY_KEY when asked to. */
  private static final class CountingStore extends ForwardingOutboxStore {
    private final boolean byKey;
    final AtomicInteger dueQueries = new AtomicInteger();
    final AtomicInteger keyClaims = new AtomicInteger();

    CountingStore(OutboxClaimOutcomeStore store, boolean byKey) {
      super(store);
      this.byKey = byKey;
    }

    @Override
    public Set<StoreCapability> capabilities() {
      return byKey ? super.capabilities() : Set.of();
    }

    @Override
    public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
      dueQueries.incrementAndGet();
      return super.claimDue(worker, maxEntries, maxPayloadBytes, lease);
    }

    @Override
    public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
      keyClaims.incrementAndGet();
      return super.claimNextOfKey(worker, orderingKey, lease);
    }

    @Override
    public List<Claim> claimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
      keyClaims.addAndGet(orderingKeys.size());
      return super.claimNextOfKeys(worker, orderingKeys, lease);
    }
  }

  @Test
  void aBusyKeyDrainsInAppendOrderWithoutWaitingOutTheIdleBackoff() throws InterruptedException {
    CountingStore store = drainOneKey(false);
    assertThat(store.keyClaims).as("claims by key, on a store without CLAIM_BY_KEY").hasValue(0);
  }

  @Test
  void onAStoreThatClaimsByKeyTheKeyIsHandedOnWithoutADueQueryPerEntry() throws InterruptedException {
    CountingStore store = drainOneKey(true);
    assertThat(store.keyClaims.get()).as("claims by key").isGreaterThanOrEqualTo(ENTRIES - 1);
    assertThat(store.dueQueries.get()).as("due queries for %d entries of one key", ENTRIES).isLessThan(ENTRIES / 3);
  }

  private CountingStore drainOneKey(boolean byKey) throws InterruptedException {
    CountingStore store = new CountingStore(new InMemoryOutboxStore(
        new MutableClock(Instant.parse("2030-01-01T00:00:00Z")), TransitionWriteHook.NONE), byKey);
    List<String> appended = IntStream.range(0, ENTRIES).mapToObj(i -> "event-" + i).toList();
    store.appendAll(appended.stream()
        .map(text -> OutboxMessage.of("orders", text.getBytes(StandardCharsets.UTF_8)).withOrderingKey("order-42"))
        .toList());
    List<String> delivered = new CopyOnWriteArrayList<>();
    CountDownLatch allDelivered = new CountDownLatch(ENTRIES);
    OutboxDrain drain = OutboxDrain.builder(store, message -> {
          delivered.add(new String(message.entry().message().payload(), StandardCharsets.UTF_8));
          allDelivered.countDown();
        })
        .workerId(WorkerId.of("keyed-drain"))
        .concurrency(4)
        // An hour between polls after a short batch: without the wake-up only the first entry would
        // be delivered within the test's patience.
        .idleBackoff(Duration.ofHours(1), Duration.ofHours(1))
        .build();

    drain.start();
    try {
      assertThat(allDelivered.await(30, TimeUnit.SECONDS))
          .as("all %d entries of one key delivered; delivered so far: %s", ENTRIES, delivered)
          .isTrue();
    } finally {
      drain.stop(Duration.ofSeconds(5));
    }
    assertThat(delivered).containsExactlyElementsOf(appended);
    return store;
  }
}
