package io.claimedoutbox.domain;

import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * The order entries were appended in — append time, then id (ids generated in one JVM increase) —
 * and what it means for ordering keys: of the entries that share a key, only the first one not yet
 * delivered or dead-lettered may be claimed. A pending, claimed or failed entry holds back every
 * later entry of its key; a delivered or dead-lettered one releases the key. Entries without a key
 * are never held back.
 */
public final class AppendOrder {

  /** Earlier appended first. */
  public static final Comparator<OutboxEntry> COMPARATOR =
      Comparator.comparing(OutboxEntry::createdAt).thenComparing(OutboxEntry::id);

  private AppendOrder() {}

  /**
   * For each ordering key, its first entry that is not terminal.
   *
   * @param entries any entries (terminal ones and unkeyed ones are passed over)
   * @return ordering key to the entry that holds it
   */
  public static Map<String, OutboxEntry> firstOfEachKey(Collection<OutboxEntry> entries) {
    Map<String, OutboxEntry> first = new HashMap<>();
    for (OutboxEntry entry : entries) {
      if (entry.status().isTerminal() || entry.message().orderingKey().isEmpty()) {
        continue;
      }
      first.merge(entry.message().orderingKey().get(), entry,
          (held, other) -> COMPARATOR.compare(held, other) <= 0 ? held : other);
    }
    return first;
  }

  /**
   * Whether {@code entry} may be claimed as far as its ordering key goes.
   *
   * @param entry a candidate
   * @param firstOfEachKey {@link #firstOfEachKey} of every stored entry
   * @return {@code true} without a key, or when it is its key's first non-terminal entry
   */
  public static boolean mayBeClaimed(OutboxEntry entry, Map<String, OutboxEntry> firstOfEachKey) {
    return entry.message().orderingKey()
        .map(key -> entry.id().equals(firstOfEachKey.get(key).id()))
        .orElse(true);
  }
}
