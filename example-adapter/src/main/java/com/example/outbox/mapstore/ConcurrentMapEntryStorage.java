package com.example.outbox.mapstore;

import io.claimedoutbox.domain.AppendOrder;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.EntryStorage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentMap;

/**
 * Outbox entries in any {@link ConcurrentMap} whose {@code computeIfPresent} is atomic — a
 * {@code ConcurrentHashMap}, or a distributed map that promises the same. Each entry is kept as its
 * {@link EntryFields}; the compare-and-set is one atomic {@code computeIfPresent} on the revision.
 */
public final class ConcurrentMapEntryStorage implements EntryStorage {

  private final ConcurrentMap<String, Map<String, byte[]>> entries;

  /** @param entries the map to keep entries in, keyed by entry id */
  public ConcurrentMapEntryStorage(ConcurrentMap<String, Map<String, byte[]>> entries) {
    this.entries = entries;
  }

  @Override
  public void insertAll(List<OutboxEntry> appended) {
    appended.forEach(entry -> entries.put(entry.id().value(), EntryFields.encode(entry)));
  }

  @Override
  public Optional<OutboxEntry> read(EntryId id) {
    return Optional.ofNullable(entries.get(id.value())).map(fields -> EntryFields.decode(id, fields));
  }

  @Override
  public boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
    boolean[] written = {false};
    entries.computeIfPresent(expected.id().value(), (id, stored) -> {
      if (!revisionOf(stored).equals(Long.toString(expected.revision()))) {
        return stored;
      }
      written[0] = true;
      return EntryFields.encode(next);
    });
    return written[0];
  }

  private static String revisionOf(Map<String, byte[]> stored) {
    byte[] revision = stored.get(EntryFields.REVISION);
    return revision == null ? "" : new String(revision, StandardCharsets.UTF_8);
  }

  @Override
  public boolean remove(EntryId id) {
    return entries.remove(id.value()) != null;
  }

  @Override
  public List<OutboxEntry> dueCandidates(Instant now, int limit) {
    List<OutboxEntry> all = entries.entrySet().stream()
        .map(stored -> EntryFields.decode(EntryId.of(stored.getKey()), stored.getValue()))
        .toList();
    Map<String, OutboxEntry> firstOfEachKey = AppendOrder.firstOfEachKey(all);
    return all.stream()
        .filter(entry -> entry.isDue(now) && AppendOrder.mayBeClaimed(entry, firstOfEachKey))
        .sorted(Comparator.comparing((OutboxEntry entry) -> entry.dueAt().orElseThrow()).thenComparing(OutboxEntry::id))
        .limit(limit)
        .toList();
  }
}
