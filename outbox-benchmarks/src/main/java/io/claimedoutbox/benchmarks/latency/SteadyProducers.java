package io.claimedoutbox.benchmarks.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Commits business transactions at a steady rate: entry {@code i} is due at {@code start + i/rate},
 * spread over a few threads so one slow commit does not hold the next back. A thread that is late
 * sends at once (it never skips), so a system that slows its producers shows it in the achieved rate.
 */
final class SteadyProducers {

  private SteadyProducers() {}

  /** What one production run achieved. */
  record Produced(int entries, double achievedPerSecond, long failures) {}

  static Produced run(LatencySystem system, Recording recording, int rate, int seconds) throws InterruptedException {
    int entries = Math.min(recording.capacity(), rate * seconds);
    int threads = rate >= 1000 ? 8 : rate >= 100 ? 2 : 1;
    long period = 1_000_000_000L / rate;
    long start = System.nanoTime() + 10_000_000L;
    AtomicLong failures = new AtomicLong();
    List<Thread> producers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int first = t;
      Thread producer = new Thread(() -> {
        for (long i = first; i < entries; i += threads) {
          long due = start + i * period;
          long wait = due - System.nanoTime();
          if (wait > 0) {
            LockSupport.parkNanos(wait);
          }
          try {
            system.produce(i);
            recording.committed(i, System.nanoTime());
          } catch (Exception failure) {
            if (failures.incrementAndGet() == 1) {
              failure.printStackTrace();
            }
          }
        }
      }, "producer-" + t);
      producers.add(producer);
      producer.start();
    }
    for (Thread producer : producers) {
      producer.join();
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    return new Produced(entries, entries / Math.max(elapsed, 1e-9), failures.get());
  }
}
