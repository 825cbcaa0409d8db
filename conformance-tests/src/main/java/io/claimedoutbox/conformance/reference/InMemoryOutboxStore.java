package io.claimedoutbox.conformance.reference;

import io.claimedoutbox.conformance.FaultProxy.Fault;
import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.port.spi.LostAcknowledgement;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.domain.AppendOrder;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimFence;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.NewEntries;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.AppendedClaims;
import io.claimedoutbox.port.spi.CommitSignal;
import io.claimedoutbox.port.OperationArguments;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.domain.EntryStatus;
import java.util.EnumMap;
import io.claimedoutbox.port.OutboxStoreListener;
import io.claimedoutbox.port.OutboxStoreListener.CallListener;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCall;
import io.claimedoutbox.port.spi.StoreListeners;
import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.port.UndecodableEntryException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The reference store: the contract implemented as plainly as possible over a map, to prove the
 * conformance suite itself (it must pass every rule) and to serve as an executable specification.
 *
 * <p>A transition reads the row under the lock, decides with {@link ClaimFence}, releases the
 * lock, calls the {@link TransitionWriteHook}, then writes under the lock only if the revision is
 * still the one it evaluated — a compare-and-set, exactly like the database adapters. Claims run
 * entirely under the lock.
 *
 * <p>Every public call is heard by the store's {@linkplain #listen listeners}; a batch of
 * transitions runs one by one through {@link #tryTransition} (the port's default), so they hear one
 * call per element, and a transition's own read of the entry as a {@code FIND}.
 *
 * <p>The protected methods are the decision points the suite's self-tests override to plant bugs;
 * they are not an extension API. Thread-safe. Not durable: for tests only.
 */
public class InMemoryOutboxStore implements OutboxClaimOutcomeStore, OutboxOperations {

  private final Clock clock;
  private final TransitionWriteHook writeHook;
  private Map<EntryId, StoredRow> rows = new HashMap<>();
  private volatile Link link = Optional::empty;

  /**
   * The path between the store's logic and its map, standing in for a network: before each request
   * it says which fault, if any, the request meets ({@link FaultProxies#nextRequest}).
   */
  @FunctionalInterface
  public interface Link {
    /** @return the fault the next request meets, empty when none */
    Optional<Fault> nextRequest();
  }

  /** A request or its answer lost on the {@link Link}, as a broken connection loses it. */
  public static final class LinkFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    LinkFailure(String message) {
      super(message);
    }
  }

  /** A row: an entry, or damage that makes it undecodable. */
  private final StoreListeners listeners = new StoreListeners();
  private final CommitSignal commits = CommitSignal.local()
      .reportingClaims(listeners::claimsCommittedOnAppend, () -> !listeners.isEmpty());

  private record StoredRow(OutboxEntry entry, String damage) {}

  /**
   * @param clock where the store reads time
   * @param writeHook called between evaluation and write of every transition
   */
  public InMemoryOutboxStore(Clock clock, TransitionWriteHook writeHook) {
    this.clock = Arguments.requireNonNull(clock, "clock");
    this.writeHook = Arguments.requireNonNull(writeHook, "writeHook");
  }

  @Override
  public Set<StoreCapability> capabilities() {
    // claimNextOfKeys asks key by key, as the port's default does: in memory that costs no round trip
    return Set.of(StoreCapability.CLAIM_BY_KEY, StoreCapability.CLAIM_BY_KEYS, StoreCapability.CLAIM_APPENDED,
        StoreCapability.CLAIM_ON_APPEND);
  }

  /**
   * Makes this store a second client of {@code other}'s rows, as a second store over one database
   * would be (with a clock of its own). Call it before the store's first use.
   *
   * @param other the store whose rows to share
   */
  public void shareRowsOf(InMemoryOutboxStore other) {
    this.rows = Arguments.requireNonNull(other, "other").rows;
  }

  /**
   * Sends every later request through {@code value}, as the fixture's fault proxy would.
   *
   * @param value the link
   */
  public void routeThrough(Link value) {
    this.link = Arguments.requireNonNull(value, "link");
  }

  @Override
  public OutboxStoreListener.Registration listen(OutboxStoreListener listener) {
    return listeners.add(listener);
  }

  @Override
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    return listeners.run(() -> StoreCall.append(batch.size()), () -> appendChecked(batch), CallListener::appended);
  }

  private List<OutboxEntry> appendChecked(List<OutboxMessage> batch) {
    Instant now = clock.instant();
    List<OutboxEntry> fresh = NewEntries.of(batch, now);
    List<OutboxEntry> appended = commits.claimOnAppend(fresh, now);
    synchronized (rows) {
      appended.forEach(entry -> rows.put(entry.id(), new StoredRow(entry, null)));
    }
    if (!appended.isEmpty()) {
      commits.committed(reportedOnCommit(fresh, appended));
    }
    return appended;
  }

  /**
   * What an append's commit reports to the listeners: the entries as written (claimed where a
   * listener took them on append), not as they were before the offer.
   *
   * @param fresh the entries as appended, before any listener took one
   * @param written the entries as written
   * @return what to report
   */
  protected List<OutboxEntry> reportedOnCommit(List<OutboxEntry> fresh, List<OutboxEntry> written) {
    return written;
  }

  @Override
  public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    List<OutboxEntry> checked = StoreArguments.checkClaimAppended(worker, appended, lease);
    return listeners.run(() -> StoreCall.claim(StoreCall.Kind.CLAIM_APPENDED, worker, checked.size()),
        () -> claimAppendedChecked(worker, checked, lease), CallListener::claimed);
  }

  private List<Claim> claimAppendedChecked(WorkerId worker, List<OutboxEntry> checked, Duration lease) {
    Instant now = clock.instant();
    WriteStamp stamp = WriteStamp.fresh();
    List<Claim> claims = new ArrayList<>();
    synchronized (rows) {
      for (OutboxEntry entry : AppendedClaims.candidates(checked, now)) {
        StoredRow row = rows.get(entry.id());
        if (row != null && row.damage() == null && row.entry().revision() == entry.revision()) {
          OutboxEntry claimed = row.entry().claimedBy(worker, now, lease, stamp);
          rows.put(entry.id(), new StoredRow(claimed, null));
          claims.add(Claim.of(claimed));
        }
      }
    }
    return claims;
  }

  /** {@inheritDoc} Drains of this store object are told after every non-empty append. */
  @Override
  public CommitNotifications commitNotifications() {
    return commits;
  }

  @Override
  public Optional<OutboxEntry> find(EntryId id) {
    Arguments.requireNonNull(id, "id");
    return listeners.run(() -> StoreCall.ofEntry(StoreCall.Kind.FIND, id), () -> read(id), CallListener::found);
  }

  private Optional<OutboxEntry> read(EntryId id) {
    try {
      return send(() -> {
        synchronized (rows) {
          return decode(id, rows.get(id));
        }
      });
    } catch (LinkFailure lost) {
      throw new OutboxStoreException("outbox store failed: find " + id, lost);
    }
  }

  @Override
  public boolean delete(EntryId id) {
    Arguments.requireNonNull(id, "id");
    return listeners.run(() -> StoreCall.ofEntry(StoreCall.Kind.DELETE, id), () -> {
      synchronized (rows) {
        return rows.remove(id) != null;
      }
    }, CallListener::deleted);
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    StoreArguments.checkClaimDue(worker, maxEntries, maxPayloadBytes, lease);
    return listeners.run(() -> StoreCall.claim(StoreCall.Kind.CLAIM_DUE, worker, maxEntries),
        () -> claimDueChecked(worker, maxEntries, maxPayloadBytes, lease), CallListener::claimed);
  }

  private List<Claim> claimDueChecked(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    Instant now = clock.instant();
    try {
      return send(() -> claimUnderLock(all -> withinPayloadLimit(selectDue(all, now, maxEntries), maxPayloadBytes),
          worker, now, lease));
    } catch (LinkFailure lost) {
      throw new OutboxStoreException("outbox store failed: claim for " + worker
          + " (entries it claimed return to the queue when their leases end)", lost);
    }
  }

  @Override
  public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    StoreArguments.checkClaimNextOfKey(worker, orderingKey, lease);
    return listeners.run(() -> StoreCall.claim(StoreCall.Kind.CLAIM_BY_KEYS, worker, 1),
        () -> claimNextOfKeyChecked(worker, orderingKey, lease), CallListener::claimed);
  }

  private List<Claim> claimNextOfKeyChecked(WorkerId worker, String orderingKey, Duration lease) {
    Instant now = clock.instant();
    try {
      return send(() -> claimUnderLock(all -> Optional.ofNullable(AppendOrder.firstOfEachKey(all).get(orderingKey))
          .filter(head -> head.isDue(now)).stream().toList(), worker, now, lease));
    } catch (LinkFailure lost) {
      throw new OutboxStoreException("outbox store failed: claim the next entry of " + orderingKey + " for " + worker
          + " (an entry it claimed returns to the queue when its lease ends)", lost);
    }
  }

  /** Under the lock: decodes every row, claims what {@code choose} picks from them. */
  private List<Claim> claimUnderLock(Function<List<OutboxEntry>, List<OutboxEntry>> choose,
      WorkerId worker, Instant now, Duration lease) {
    synchronized (rows) {
      List<Claim> claims = new ArrayList<>();
      for (OutboxEntry due : choose.apply(decodedRows())) {
        OutboxEntry claimed = claim(due, worker, now, lease);
        rows.put(claimed.id(), new StoredRow(claimed, null));
        claims.add(Claim.of(claimed));
      }
      return claims;
    }
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    StoreArguments.checkTransition(claim, request);
    return listeners.run(() -> StoreCall.transition(List.of(new ClaimTransition(claim, request))),
        () -> transition(claim, request), (listener, result, nanos) -> listener.transitioned(List.of(result), nanos));
  }

  private ClaimTransitionResult transition(Claim claim, TransitionRequest request) {
    Optional<OutboxEntry> evaluated = find(claim.entryId());
    Optional<ClaimTransitionResult> decided = decideBeforeWrite(claim, evaluated);
    if (decided.isPresent()) {
      return decided.get();
    }
    writeHook.beforeWrite(claim, request.kind());
    OutboxEntry next = written(evaluated.get(), claim, request, clock.instant(), WriteStamp.fresh());
    boolean landed;
    try {
      landed = send(() -> compareAndSet(evaluated.get(), next));
    } catch (LinkFailure lost) {
      return lostAcknowledgement(claim, request.kind(), next, evaluated.get(), lost);
    }
    return landed ? ClaimTransitionResult.applied(next) : afterLostWrite(claim, find(claim.entryId()));
  }

  @Override
  public StatusCounts countByStatus() {
    Map<EntryStatus, Long> counts = new EnumMap<>(EntryStatus.class);
    decodedRows().forEach(entry -> counts.merge(entry.status(), 1L, Long::sum));
    return new StatusCounts(counts);
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    Instant now = clock.instant();
    return decodedRows().stream().filter(entry -> entry.isDue(now)).map(entry -> entry.dueAt().orElseThrow())
        .min(Comparator.naturalOrder()).map(due -> Duration.between(due, now));
  }

  @Override
  public List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    OperationArguments.check(query);
    return decodedRows().stream()
        .filter(entry -> entry.status() == EntryStatus.DEAD_LETTERED
            && query.matches(entry.message().topic(), entry.id()))
        .sorted(Comparator.comparing(OutboxEntry::id)).limit(query.limit()).toList();
  }

  @Override
  public RequeueResult requeue(EntryId id) {
    OperationArguments.checkId(id);
    Optional<OutboxEntry> before = find(id);
    boolean written = before.filter(entry -> entry.status() == EntryStatus.DEAD_LETTERED)
        .map(entry -> compareAndSet(entry, requeuedEntry(entry, clock.instant()))).orElse(false);
    return RequeueResult.of(written, find(id));
  }

  @Override
  public int purgeFinished(Duration olderThan, int batchSize) {
    OperationArguments.checkPurge(olderThan, batchSize);
    Instant cutoff = clock.instant().minus(olderThan);
    synchronized (rows) {
      List<EntryId> old = decodedRows().stream()
          .filter(entry -> entry.status().isTerminal() && entry.updatedAt().isBefore(cutoff))
          .sorted(Comparator.comparing(OutboxEntry::updatedAt)).limit(batchSize).map(OutboxEntry::id).toList();
      old.forEach(rows::remove);
      return old.size();
    }
  }

  @Override
  public long countPurgeable(Duration olderThan) {
    OperationArguments.checkAge(olderThan);
    Instant cutoff = clock.instant().minus(olderThan);
    return decodedRows().stream().filter(entry -> entry.status().isTerminal() && entry.updatedAt().isBefore(cutoff))
        .count();
  }

  private List<OutboxEntry> decodedRows() {
    synchronized (rows) {
      List<OutboxEntry> all = new ArrayList<>();
      rows.forEach((id, row) -> decode(id, row).ifPresent(all::add));
      return all;
    }
  }

  private boolean compareAndSet(OutboxEntry evaluated, OutboxEntry next) {
    synchronized (rows) {
      StoredRow current = rows.get(next.id());
      if (current != null && current.damage() == null && current.entry().revision() == evaluated.revision()) {
        rows.put(next.id(), new StoredRow(next, null));
        return true;
      }
      return false;
    }
  }

  /**
   * One request over the {@link Link}: cut before it, the map never sees it; cut after it (or held,
   * then let go), the map acts and the answer is lost.
   */
  private <T> T send(java.util.function.Supplier<T> request) {
    Optional<Fault> fault = link.nextRequest();
    if (fault.isPresent() && fault.get() == Fault.CUT_BEFORE_REQUEST) {
      throw new LinkFailure("connection cut before the request");
    }
    T answer = request.get();
    if (fault.isPresent()) {
      throw new LinkFailure("connection cut before the answer");
    }
    return answer;
  }

  /**
   * A transition write whose answer was lost: decided like every adapter decides it, from the row
   * read again ({@link LostAcknowledgement}).
   *
   * @param claim the caller's claim
   * @param kind the transition
   * @param next the entry the write would store
   * @param evaluated the row the write was checked against
   * @param lost the failure
   * @return the outcome
   */
  protected ClaimTransitionResult lostAcknowledgement(
      Claim claim, TransitionKind kind, OutboxEntry next, OutboxEntry evaluated, RuntimeException lost) {
    return LostAcknowledgement.resolve(claim, kind, next.lastWriteStamp().orElseThrow(), evaluated.revision(),
        false, () -> find(claim.entryId()), new OutboxStoreException("the link failed", lost));
  }

  /**
   * Damages a row so it can no longer be decoded, as the fixture's {@code corrupt} asks.
   *
   * @param id the row
   * @param damage what is wrong with it
   */
  public void corrupt(EntryId id, String damage) {
    synchronized (rows) {
      StoredRow row = rows.get(id);
      if (row != null) {
        rows.put(id, new StoredRow(row.entry(), damage));
      }
    }
  }

  /**
   * The rows as a backend would show them, including damaged ones, for the fixture's raw reads.
   *
   * @return a copy of every stored entry (damaged ones as they were before the damage)
   */
  public Map<EntryId, OutboxEntry> rawRows() {
    synchronized (rows) {
      Map<EntryId, OutboxEntry> copy = new HashMap<>();
      rows.forEach((id, row) -> copy.put(id, row.entry()));
      return copy;
    }
  }

  /** Deletes every row. */
  public void clear() {
    synchronized (rows) {
      rows.clear();
    }
  }

  private static Optional<OutboxEntry> decode(EntryId id, StoredRow row) {
    if (row == null) {
      return Optional.empty();
    }
    if (row.damage() != null) {
      throw new UndecodableEntryException(id, row.damage(), null);
    }
    return Optional.of(row.entry());
  }

  /**
   * Rules 1–3 of the contract.
   *
   * @param claim the caller's claim
   * @param durable the row as read
   * @return the decided outcome, or empty when the write may be attempted
   */
  protected Optional<ClaimTransitionResult> decideBeforeWrite(Claim claim, Optional<OutboxEntry> durable) {
    return ClaimFence.decideBeforeWrite(claim, durable);
  }

  /**
   * Rule 5 of the contract.
   *
   * @param claim the caller's claim
   * @param refreshed the row read again after the lost write
   * @return the outcome
   */
  protected ClaimTransitionResult afterLostWrite(Claim claim, Optional<OutboxEntry> refreshed) {
    return ClaimFence.afterLostWrite(claim, refreshed);
  }

  /**
   * The entry a transition writes.
   *
   * @param evaluated the row the fence accepted
   * @param claim the caller's claim
   * @param request the transition
   * @param now the write time
   * @param stamp the write's stamp
   * @return the entry to store
   */
  protected OutboxEntry written(
      OutboxEntry evaluated, Claim claim, TransitionRequest request, Instant now, WriteStamp stamp) {
    return request.applyTo(evaluated, now, stamp);
  }

  /**
   * The leading due entries whose payloads fit the claim's limit ({@link PayloadBudget}).
   *
   * @param due the due entries, in due order
   * @param maxPayloadBytes the claim's limit
   * @return the ones to claim
   */
  protected List<OutboxEntry> withinPayloadLimit(List<OutboxEntry> due, long maxPayloadBytes) {
    PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
    List<OutboxEntry> fitting = new ArrayList<>();
    for (OutboxEntry entry : due) {
      if (!budget.take(entry.message().payloadSize())) {
        break;
      }
      fitting.add(entry);
    }
    return fitting;
  }

  /**
   * The due entries a claim takes: due at {@code now}, each the first of its ordering key
   * ({@link AppendOrder}), oldest due first, at most {@code max}.
   *
   * @param all every stored entry
   * @param now the claim time
   * @param max the batch bound
   * @return the entries to claim
   */
  protected List<OutboxEntry> selectDue(Collection<OutboxEntry> all, Instant now, int max) {
    Map<String, OutboxEntry> firstOfEachKey = AppendOrder.firstOfEachKey(all);
    return all.stream()
        .filter(entry -> entry.isDue(now) && AppendOrder.mayBeClaimed(entry, firstOfEachKey))
        .sorted(Comparator.comparing((OutboxEntry entry) -> entry.dueAt().orElseThrow())
            .thenComparing(OutboxEntry::id))
        .limit(max)
        .toList();
  }

  /**
   * The entry a requeue writes.
   *
   * @param deadLetter the dead letter as read
   * @param now the requeue time
   * @return the entry to store
   */
  protected OutboxEntry requeuedEntry(OutboxEntry deadLetter, Instant now) {
    return deadLetter.requeued(now, WriteStamp.fresh());
  }

  /**
   * The entry as claimed.
   *
   * @param due the due entry
   * @param worker who claims
   * @param now the claim time
   * @param lease the lease length
   * @return the claimed entry
   */
  protected OutboxEntry claim(OutboxEntry due, WorkerId worker, Instant now, Duration lease) {
    return due.claimedBy(worker, now, lease, WriteStamp.fresh());
  }
}
