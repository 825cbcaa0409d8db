package io.claimedoutbox.benchmarks;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** What the handlers of one run saw: distinct entries and duplicate deliveries. */
final class Handled {

  private final Set<String> seen = ConcurrentHashMap.newKeySet();
  private final AtomicLong duplicates = new AtomicLong();
  private final CountDownLatch all;

  Handled(int expected) {
    this.all = new CountDownLatch(expected);
  }

  void delivered(String id) {
    if (seen.add(id)) {
      all.countDown();
    } else {
      duplicates.incrementAndGet();
    }
  }

  /** @return whether every entry was handled within {@code timeout} */
  boolean await(Duration timeout) throws InterruptedException {
    return all.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  long distinct() {
    return seen.size();
  }

  long duplicates() {
    return duplicates.get();
  }
}
