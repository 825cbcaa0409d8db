package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.TransitionOutcomeUnknownException;
import io.claimedoutbox.port.TransitionWriteHook;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The outbox on Jakarta Persistence with Hibernate ORM: one object implementing all three store
 * contracts over the {@code outbox_entry} table ({@link OutboxSchema} ships its DDL).
 *
 * <p><b>Transitions</b> run in a transaction of their own: read the row, decide with
 * {@link ClaimFence} (missing, terminal, stale: nothing written), otherwise update it. Hibernate's
 * {@code @Version} makes the update a compare-and-set: {@code UPDATE … WHERE id = ? AND revision =
 * ?}. {@code APPLIED} is reported only after the commit returned. An update that matched no row
 * (or that the database rolled back for a concurrent writer) is re-read in a new transaction and
 * reported as {@code MISSING} or {@code CONCURRENCY_LOST}. Two round trips and one commit for a
 * transition that applies; one for a stale one.
 *
 * <p><b>Claims</b> use {@link ClaimLocking}: {@code SKIP LOCKED} batches on PostgreSQL and
 * MariaDB, an optimistic fallback elsewhere.
 *
 * <p><b>Lost commit acknowledgements.</b> When the commit of an update fails in a way that does
 * not prove a rollback, the store re-reads the row and decides from the write stamp it stored:
 * its own stamp at the next revision means {@code APPLIED}; another writer's next revision means
 * {@code CONCURRENCY_LOST}; the unchanged revision means nothing was written (an
 * {@link OutboxStoreException}); anything else, or no answer, is a
 * {@link TransitionOutcomeUnknownException}. It never guesses {@code APPLIED}.
 *
 * <p>Thread-safe: every call uses its own {@code EntityManager}. Appends that must join the
 * caller's transaction use {@link #appendWithin}.
 */
public final class JpaOutboxStore implements OutboxClaimOutcomeStore {

  private final JpaTransactions transactions;
  private final Clock clock;
  private final TransitionWriteHook writeHook;
  private final DueEntryClaimer claimer;
  private final ClaimLocking claimLocking;

  private JpaOutboxStore(Builder builder) {
    this.transactions = new JpaTransactions(builder.factory);
    this.clock = builder.clock;
    this.writeHook = builder.writeHook;
    this.claimLocking = builder.claimLocking == ClaimLocking.AUTO
        ? JpaDialects.defaultLocking(builder.factory) : builder.claimLocking;
    this.claimer = claimLocking == ClaimLocking.SKIP_LOCKED
        ? new SkipLockedClaimer(transactions) : new OptimisticClaimer(transactions);
  }

  /**
   * Starts building a store over {@code factory}, whose persistence unit must manage
   * {@link OutboxEntryRecord} (see {@link JpaOutbox#entityManagerFactory}).
   *
   * @param factory the entity manager factory; the store does not close it
   * @return a builder with the system UTC clock, {@link ClaimLocking#AUTO} and no write hook
   */
  public static Builder builder(EntityManagerFactory factory) {
    return new Builder(Arguments.requireNonNull(factory, "factory"));
  }

  /** @return the claim locking this store uses, {@code AUTO} resolved */
  public ClaimLocking claimLocking() {
    return claimLocking;
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return Set.of(StoreCapability.TRANSACTIONAL_APPEND);
  }


  @Override
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    if (batch.isEmpty()) {
      return List.of();
    }
    try {
      return transactions.inTransaction(em -> persist(em, batch));
    } catch (RuntimeException failure) {
      throw JpaTransactions.infrastructure("append", failure);
    }
  }

  /**
   * Appends within the caller's transaction: the entries are written exactly when the caller's
   * business change commits, and not at all when it rolls back.
   *
   * @param em the caller's entity manager, in an active transaction, whose persistence unit
   *     manages {@link OutboxEntryRecord}
   * @param messages what to append
   * @return the entries as they will be stored once the caller commits
   * @throws IllegalStateException if {@code em} has no active transaction
   */
  public List<OutboxEntry> appendWithin(EntityManager em, List<OutboxMessage> messages) {
    Arguments.requireNonNull(em, "em");
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    if (!em.isJoinedToTransaction()) {
      throw new IllegalStateException("appendWithin needs an active transaction on em");
    }
    return persist(em, batch);
  }

  private List<OutboxEntry> persist(EntityManager em, List<OutboxMessage> batch) {
    Instant now = clock.instant();
    List<OutboxEntry> entries = new ArrayList<>(batch.size());
    for (OutboxMessage message : batch) {
      OutboxEntry entry = OutboxEntry.appended(EntryId.generate(), message, now, WriteStamp.fresh());
      em.persist(OutboxEntryMapper.newRecord(entry));
      entries.add(entry);
    }
    return entries;
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    Arguments.requireNonNull(id, "id");
    try {
      return transactions.inTransaction(em -> read(em, id));
    } catch (RuntimeException failure) {
      throw JpaTransactions.infrastructure("find " + id, failure);
    }
  }

  private static Optional<OutboxEntry> read(EntityManager em, EntryId id) {
    return Optional.ofNullable(em.find(OutboxEntryRecord.class, id.value()))
        .map(OutboxEntryMapper::toEntry);
  }

  @Override
  public boolean delete(EntryId id) {
    Arguments.requireNonNull(id, "id");
    try {
      return transactions.inTransaction(em ->
          em.createQuery("delete from OutboxEntryRecord r where r.id = :id")
              .setParameter("id", id.value())
              .executeUpdate() == 1);
    } catch (RuntimeException failure) {
      throw JpaTransactions.infrastructure("delete " + id, failure);
    }
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, Duration lease) {
    StoreArguments.checkClaimDue(worker, maxEntries, lease);
    try {
      return claimer.claim(worker, maxEntries, lease, clock.instant()).stream().map(Claim::of).toList();
    } catch (RuntimeException failure) {
      throw JpaTransactions.infrastructure("claim due entries for " + worker, failure);
    }
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    EntityManager em = transactions.open();
    EntityTransaction tx = em.getTransaction();
    try {
      OutboxEntry written;
      WriteStamp stamp = WriteStamp.fresh();
      OutboxEntry evaluated;
      try {
        tx.begin();
        OutboxEntryRecord row = em.find(OutboxEntryRecord.class, claim.entryId().value());
        Optional<OutboxEntry> durable = Optional.ofNullable(row).map(OutboxEntryMapper::toEntry);
        Optional<ClaimTransitionResult> decided = ClaimFence.decideBeforeWrite(claim, durable);
        if (decided.isPresent()) {
          tx.rollback();
          return decided.get();
        }
        evaluated = durable.get();
        writeHook.beforeWrite(claim, request.kind());
        written = request.applyTo(evaluated, clock.instant(), stamp);
        OutboxEntryMapper.copyInto(written, row);
        em.flush();
      } catch (RuntimeException failure) {
        JpaTransactions.rollbackQuietly(tx);
        if (JpaTransactions.isLostToConcurrentWriter(failure)) {
          return ClaimFence.afterLostWrite(claim, find(claim.entryId()));
        }
        throw JpaTransactions.infrastructure(request.kind() + " of " + claim.entryId(), failure);
      }
      try {
        tx.commit();
      } catch (RuntimeException failure) {
        JpaTransactions.rollbackQuietly(tx);
        if (JpaTransactions.isLostToConcurrentWriter(failure)) {
          return ClaimFence.afterLostWrite(claim, find(claim.entryId()));
        }
        return new AmbiguousCommit(claim, request.kind(), evaluated, stamp, failure)
            .resolve(() -> find(claim.entryId()));
      }
      return ClaimTransitionResult.applied(written);
    } finally {
      em.close();
    }
  }

  /** Builds a {@link JpaOutboxStore}. Not thread-safe. */
  public static final class Builder {
    private final EntityManagerFactory factory;
    private Clock clock = Clock.systemUTC();
    private TransitionWriteHook writeHook = TransitionWriteHook.NONE;
    private ClaimLocking claimLocking = ClaimLocking.AUTO;

    private Builder(EntityManagerFactory factory) {
      this.factory = factory;
    }

    /**
     * @param value where the store reads time (claim times, leases, update times)
     * @return this builder
     */
    public Builder clock(Clock value) {
      this.clock = Arguments.requireNonNull(value, "clock");
      return this;
    }

    /**
     * @param value how batch claims avoid handing a row out twice
     * @return this builder
     */
    public Builder claimLocking(ClaimLocking value) {
      this.claimLocking = Arguments.requireNonNull(value, "claimLocking");
      return this;
    }

    /**
     * A test seam: called between evaluating a transition and writing it.
     *
     * @param value the hook
     * @return this builder
     */
    public Builder writeHook(TransitionWriteHook value) {
      this.writeHook = Arguments.requireNonNull(value, "writeHook");
      return this;
    }

    /** @return the store */
    public JpaOutboxStore build() {
      return new JpaOutboxStore(this);
    }
  }
}
