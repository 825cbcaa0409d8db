package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import jakarta.persistence.LockModeType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.hibernate.Timeouts;

/**
 * One transaction: lock up to N due rows with {@code FOR UPDATE SKIP LOCKED}, write each as
 * claimed, commit. Rows another worker is claiming at the same moment are skipped, never waited
 * for, so concurrent batches never block each other or hand out one row twice.
 */
final class SkipLockedClaimer implements DueEntryClaimer {

  private final JpaTransactions transactions;

  SkipLockedClaimer(JpaTransactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public List<OutboxEntry> claim(WorkerId worker, int maxEntries, Duration lease, Instant now) {
    return transactions.inTransaction(em -> {
      List<OutboxEntryRecord> rows = DueEntryClaimer.dueRows(em, now, maxEntries)
          .setLockMode(LockModeType.PESSIMISTIC_WRITE)
          .setHint("jakarta.persistence.lock.timeout", Timeouts.SKIP_LOCKED_MILLI)
          .getResultList();
      List<OutboxEntry> claimed = new ArrayList<>(rows.size());
      for (OutboxEntryRecord row : rows) {
        OutboxEntry entry = OutboxEntryMapper.toEntry(row)
            .claimedBy(worker, now, lease, WriteStamp.fresh());
        OutboxEntryMapper.copyInto(entry, row);
        claimed.add(entry);
      }
      em.flush();
      return claimed;
    });
  }
}
