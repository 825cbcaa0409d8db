package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Claimed transitions in as few round trips as the database allows, decided atomically.
 *
 * <p><b>Fast path</b>, one round trip for a whole batch ({@link RowWriter}; on databases without a
 * set-based statement, a batch of updates plus its commit): every element is written where the row
 * is still at the revision of the claim's snapshot and held under the claim. Every
 * write raises the revision, so a row at that revision <em>is</em> the snapshot, held under the
 * claim: the update is evaluation and write in one statement, and the entry it wrote is computed
 * from the snapshot instead of being read back.
 *
 * <p><b>Locked path</b>, for an element the fast path did not match: in one transaction, read the
 * row {@code FOR UPDATE}, decide with {@link ClaimFence} (missing, terminal, stale: nothing
 * written), otherwise write it at the revision read (the holder had written the row since its
 * snapshot, for example a lease renewal through an older claim object). Under the row lock nothing
 * can land between evaluation and write, so the store never reports {@code CONCURRENCY_LOST}.
 *
 * <p><b>Lost acknowledgements</b> (the statement or the commit failed without proving a
 * rollback) are resolved per element from the row read again by {@link AmbiguousCommit}.
 */
final class SqlTransitions {

  private final JdbcAccess jdbc;
  private final SqlDialect dialect;
  private final RowWriter writer;
  private final Clock clock;

  SqlTransitions(JdbcAccess jdbc, SqlDialect dialect, Clock clock) {
    this.jdbc = jdbc;
    this.dialect = dialect;
    this.writer = RowWriter.of(dialect);
    this.clock = clock;
  }

  List<ClaimTransitionResult> apply(List<ClaimTransition> batch) {
    Instant now = clock.instant();
    List<OutboxEntry> written = new ArrayList<>(batch.size());
    List<RowWriter.RowWrite> writes = new ArrayList<>(batch.size());
    for (ClaimTransition transition : batch) {
      Claim claim = transition.claim();
      OutboxEntry next = transition.request().applyTo(claim.snapshot(), now, WriteStamp.fresh());
      written.add(next);
      writes.add(new RowWriter.RowWrite(next, claim.snapshot().revision(), claim));
    }
    int[] outcomes;
    try {
      outcomes = writes.size() == 1 || writer.isOneStatement()
          ? jdbc.autoCommitted(Repeat.SAFE, connection -> writer.write(connection, writes))
          : jdbc.inTransaction(Repeat.SAFE, connection -> writer.write(connection, writes));
    } catch (SQLException | RuntimeException failure) {
      return resolveAll(batch, written, failure);
    }
    List<ClaimTransitionResult> results = new ArrayList<>(batch.size());
    try {
      for (int i = 0; i < batch.size(); i++) {
        results.add(switch (outcomes[i]) {
          case RowWriter.WRITTEN -> ClaimTransitionResult.applied(written.get(i));
          case RowWriter.NOT_MATCHED -> applyLocked(batch.get(i), written.get(i).lastWriteStamp().orElseThrow());
          default -> resolve(batch.get(i), written.get(i), new IllegalStateException(
              "the database did not say whether the row was written"));
        });
      }
    } catch (OutboxStoreException failure) {
      throw ofWholeBatch(batch, written, failure);
    }
    return results;
  }

  /** A failed fast-path batch: each element is decided from its row as stored now. */
  private List<ClaimTransitionResult> resolveAll(List<ClaimTransition> batch, List<OutboxEntry> written,
      Exception failure) {
    List<ClaimTransitionResult> results = new ArrayList<>(batch.size());
    try {
      for (int i = 0; i < batch.size(); i++) {
        results.add(resolve(batch.get(i), written.get(i), failure));
      }
    } catch (OutboxStoreException unresolved) {
      throw ofWholeBatch(batch, written, unresolved);
    }
    return results;
  }

  /**
   * One element of a batch could not be decided: the call fails, and says with which stamp each
   * element's write was sent, so the caller settles every element by reading it (the elements
   * decided before would otherwise be asked again and answer {@code TERMINAL} for their own write).
   */
  private static OutboxStoreException ofWholeBatch(List<ClaimTransition> batch, List<OutboxEntry> written,
      OutboxStoreException failure) {
    if (batch.size() == 1) {
      return failure;
    }
    Map<EntryId, WriteStamp> sent = new LinkedHashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      sent.put(batch.get(i).entryId(), written.get(i).lastWriteStamp().orElseThrow());
    }
    return TransitionOutcomeUnknownException.ofPartialBatch(batch, sent, failure);
  }

  private ClaimTransitionResult resolve(ClaimTransition transition, OutboxEntry written, Exception failure) {
    Claim claim = transition.claim();
    return new AmbiguousCommit(claim, transition.kind(), claim.snapshot(),
        written.lastWriteStamp().orElseThrow(), failure).resolve(() -> find(claim));
  }

  /**
   * The locked path for an element the fast path did not match. {@code fastStamp} is the stamp the
   * fast path wrote with: a row carrying it was written by this call after all (an autocommitted
   * batch that a deadlock cut short and the retry then missed), so it is {@code APPLIED}.
   */
  private ClaimTransitionResult applyLocked(ClaimTransition transition, WriteStamp fastStamp) {
    Claim claim = transition.claim();
    WriteStamp stamp = WriteStamp.fresh();
    OutboxEntry[] evaluated = new OutboxEntry[1];
    try {
      return jdbc.inTransaction(Repeat.ONCE, connection -> {
        Optional<OutboxEntry> durable = EntryRows.find(connection, claim.entryId(), true, dialect);
        if (durable.isPresent() && durable.get().lastWriteStamp().equals(Optional.of(fastStamp))) {
          return ClaimTransitionResult.applied(durable.get());
        }
        Optional<ClaimTransitionResult> decided = ClaimFence.decideBeforeWrite(claim, durable);
        if (decided.isPresent()) {
          return decided.get();
        }
        evaluated[0] = durable.get();
        OutboxEntry written = transition.request().applyTo(evaluated[0], clock.instant(), stamp);
        int[] outcome = writer.write(connection, List.of(new RowWriter.RowWrite(written, evaluated[0].revision(), null)));
        if (outcome[0] == RowWriter.NOT_MATCHED) {
          throw new IllegalStateException("bug: locked row " + claim.entryId() + " changed under its lock");
        }
        return ClaimTransitionResult.applied(written);
      });
    } catch (SQLException | RuntimeException failure) {
      if (evaluated[0] == null) {
        throw JdbcAccess.failure(transition.kind() + " of " + claim.entryId(), failure);
      }
      return new AmbiguousCommit(claim, transition.kind(), evaluated[0], stamp, failure)
          .resolve(() -> find(claim));
    }
  }

  private Optional<OutboxEntry> find(Claim claim) {
    try {
      return jdbc.autoCommitted(Repeat.SAFE, connection -> EntryRows.find(connection, claim.entryId(), false, dialect));
    } catch (SQLException failure) {
      throw JdbcAccess.failure("find " + claim.entryId(), failure);
    }
  }
}
