package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import jakarta.persistence.EntityManager;
import jakarta.persistence.TypedQuery;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** One way of claiming a batch of due rows; see {@link ClaimLocking}. */
interface DueEntryClaimer {

  /** Oldest due first: the order the {@code outbox_entry_due} index serves. */
  String DUE_QUERY = "select r from OutboxEntryRecord r where r.dueAt <= :now order by r.dueAt, r.id";

  /**
   * @return the entries as claimed and committed, oldest due first
   */
  List<OutboxEntry> claim(WorkerId worker, int maxEntries, Duration lease, Instant now);

  static TypedQuery<OutboxEntryRecord> dueRows(EntityManager em, Instant now, int limit) {
    return em.createQuery(DUE_QUERY, OutboxEntryRecord.class)
        .setParameter("now", now)
        .setMaxResults(limit);
  }
}
