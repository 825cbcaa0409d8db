package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The entries an append batch writes, for stores whose ids need nothing backend-specific. */
public final class NewEntries {

  private NewEntries() {}

  /**
   * One fresh entry per message, in order: a new id, revision 1, its own write stamp.
   *
   * @param messages a batch already checked with {@link io.claimedoutbox.port.StoreArguments#checkAppendAll}
   * @param now the append time
   * @return the entries to write
   */
  public static List<OutboxEntry> of(List<OutboxMessage> messages, Instant now) {
    List<OutboxEntry> entries = new ArrayList<>(messages.size());
    for (OutboxMessage message : messages) {
      entries.add(OutboxEntry.appended(EntryId.generate(), message, now, WriteStamp.fresh()));
    }
    return entries;
  }
}
