package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The next entry of each ordering key a result write released, as {@code write.lua} read it in the
 * same step, kept for the claim by key that follows ({@code claimNextOfKeys}): the drain hands a
 * released key on right after the write, and with the head at hand that claim is one round trip
 * (the claim script) instead of three (the key's index head, its hash, the claim script).
 *
 * <p>A hint is only ever a candidate: the claim writes it only at the revision read and only while
 * it is still its key's first unfinished entry, exactly as for a head read just before. What a stale
 * hint can cost is a key not handed on by this call (another worker claimed the entry, or it was
 * deleted); its entry waits in the due index for the next due query, as after any lost race. Each
 * hint is used once, and one older than {@link #MAX_AGE_NANOS} is read afresh instead, so a key
 * handed on long after its release does not try a snapshot that has likely moved on.
 */
final class KeyHeadHints {

  /** Far longer than a write and the hand-on after it take; far shorter than entries stay put. */
  static final long MAX_AGE_NANOS = 1_000_000_000L;
  /**
   * Unused hints are all dropped past this many, or past {@link #MOST_BYTES} of fields (counted
   * roughly under concurrent use): they only save reads, and a drain takes each within milliseconds.
   * A program that finishes keyed entries and never claims by key keeps at most this much.
   */
  static final int MOST_KEPT = 10_000;
  static final long MOST_BYTES = 16L << 20;

  private record Hint(EntryId id, Map<String, byte[]> hash, long readAtNanos, long bytes) {}

  private final Map<String, Hint> byKey = new ConcurrentHashMap<>();
  private final AtomicLong bytesKept = new AtomicLong();
  private final LongSupplier nanoTime;

  KeyHeadHints(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /**
   * @param orderingKey a key a write released
   * @param id its first unfinished entry after the write
   * @param hash that entry's hash as the write read it
   */
  void offer(String orderingKey, EntryId id, Map<String, byte[]> hash) {
    long bytes = 0;
    for (byte[] value : hash.values()) {
      bytes += value.length;
    }
    if (byKey.size() >= MOST_KEPT || bytesKept.get() + bytes > MOST_BYTES) {
      byKey.clear();
      bytesKept.set(0);
    }
    forget(byKey.put(orderingKey, new Hint(id, hash, nanoTime.getAsLong(), bytes)));
    bytesKept.addAndGet(bytes);
  }

  private void forget(Hint hint) {
    if (hint != null) {
      bytesKept.addAndGet(-hint.bytes());
    }
  }

  /**
   * Takes the key's hint, decoded (a damaged entry throws, naming it, as the read it saves would).
   *
   * @param orderingKey a key to hand on
   * @return its head as the releasing write read it; empty when there is none or it is too old
   */
  Optional<OutboxEntry> take(String orderingKey) {
    Hint hint = byKey.remove(orderingKey);
    forget(hint);
    if (hint == null || nanoTime.getAsLong() - hint.readAtNanos() > MAX_AGE_NANOS) {
      return Optional.empty();
    }
    return Optional.of(EntryFields.decode(hint.id(), hint.hash()));
  }
}
