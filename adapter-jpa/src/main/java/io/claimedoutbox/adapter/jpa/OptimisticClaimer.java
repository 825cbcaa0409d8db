package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * For databases without {@code SKIP LOCKED}: read due candidates without locks, then claim each in
 * a short transaction of its own whose update is checked against the version read. A candidate
 * another worker claimed first fails that check and is skipped. A few spare candidates are read so
 * a batch is still full when some are lost.
 */
final class OptimisticClaimer implements DueEntryClaimer {

  private static final int SPARE_CANDIDATES = 8;

  private final JpaTransactions transactions;

  OptimisticClaimer(JpaTransactions transactions) {
    this.transactions = transactions;
  }

  @Override
  public List<OutboxEntry> claim(WorkerId worker, int maxEntries, Duration lease, Instant now) {
    List<String> candidates = transactions.inTransaction(em ->
        DueEntryClaimer.dueRows(em, now, maxEntries + SPARE_CANDIDATES).getResultList().stream()
            .map(row -> row.id)
            .toList());
    List<OutboxEntry> claimed = new ArrayList<>();
    for (String id : candidates) {
      if (claimed.size() == maxEntries) {
        break;
      }
      claimOne(id, worker, lease, now).ifPresent(claimed::add);
    }
    return claimed;
  }

  private Optional<OutboxEntry> claimOne(String id, WorkerId worker, Duration lease, Instant now) {
    try {
      return transactions.inTransaction(em -> {
        OutboxEntryRecord row = em.find(OutboxEntryRecord.class, id);
        if (row == null) {
          return Optional.empty();
        }
        OutboxEntry entry = OutboxEntryMapper.toEntry(row);
        if (!entry.isDue(now)) {
          return Optional.empty();
        }
        OutboxEntry claimed = entry.claimedBy(worker, now, lease, WriteStamp.fresh());
        OutboxEntryMapper.copyInto(claimed, row);
        em.flush();
        return Optional.of(claimed);
      });
    } catch (RuntimeException failure) {
      if (JpaTransactions.isLostToConcurrentWriter(failure)) {
        return Optional.empty();
      }
      throw failure;
    }
  }
}
