package io.claimedoutbox.conformance.reference;

import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FaultProxy.Fault;
import io.claimedoutbox.conformance.TransitionWriteHook;
import io.claimedoutbox.domain.AppendOrder;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.ClaimKernel;
import io.claimedoutbox.port.spi.ClaimStorage;
import io.claimedoutbox.port.spi.ClaimWrite;
import io.claimedoutbox.port.spi.CommitSignal;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.ConditionalWrites;
import io.claimedoutbox.port.spi.KernelOutboxStoreWithOperations;
import io.claimedoutbox.port.spi.NewEntries;
import io.claimedoutbox.port.spi.TransitionKernel;
import io.claimedoutbox.port.spi.WriteAnswer;
import io.claimedoutbox.port.spi.WriteOutcomeUnknownException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The reference store: map storage under the same {@link KernelOutboxStoreWithOperations} and
 * {@link TransitionKernel} every shipped adapter runs on, so the conformance suite proves the
 * algorithm the adapters use, and this class reads as the list of primitives an adapter writes.
 *
 * <p>The map is the "backend": one row per entry (or damage that makes it undecodable), guarded by
 * one lock. Its {@link ConditionalWrites} are a compare-and-set on the revision under that lock.
 * Transitions are decided {@linkplain TransitionKernel#evaluatingFirst evaluating first}: the row is
 * read, {@code ClaimFence} decides, the suite's {@link TransitionWriteHook} runs, then the write is
 * compared and set; so the staged races (a write landing between evaluation and write) end in
 * {@code CONCURRENCY_LOST} or {@code MISSING}, as the contract's rule 5 says. Claims run entirely
 * under the lock. Every request to the map (reads, claims, writes) goes over a {@link Link} that the
 * fixture's fault proxy can cut before the request or before the answer, standing in for a network.
 *
 * <p>The protected methods are the primitives the suite's self-tests override to plant the bugs an
 * adapter on the kernel could have (a due query that ignores leases, a compare-and-set that reports
 * success it did not have, an answer lost and guessed); they are not an extension API. Bugs that
 * only a store written by hand can have are planted by wrapping this one. Thread-safe. Not durable:
 * for tests only.
 */
public class InMemoryOutboxStore extends KernelOutboxStoreWithOperations {

  private final Clock clock;
  private final TransitionWriteHook writeHook;
  private final ConditionalWrites conditionalWrites = new MapWrites();
  private final TransitionKernel transitions;
  private final CommitSignal commits = newCommitSignal(null);
  private final ClaimKernel claims;
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
  private record StoredRow(OutboxEntry entry, String damage) {}

  /**
   * @param clock where the store reads time
   * @param writeHook called between evaluation and write of every transition
   */
  public InMemoryOutboxStore(Clock clock, TransitionWriteHook writeHook) {
    this.clock = Arguments.requireNonNull(clock, "clock");
    this.writeHook = Arguments.requireNonNull(writeHook, "writeHook");
    this.transitions = TransitionKernel.evaluatingFirst(conditionalWrites, clock);
    this.claims = new ClaimKernel(new MapClaims(), clock);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    // claimNextOfKeys reads every key's first entry in one request and claims them in one unit (the ClaimKernel)
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

  /** @return the clock this store reads time from */
  public Clock clock() {
    return clock;
  }

  /** {@inheritDoc} Drains of this store object are told after every non-empty append. */
  @Override
  public CommitNotifications commitNotifications() {
    return commits;
  }

  // ---- the primitives an adapter writes: appends, reads, removal, claims, conditional writes ----

  @Override
  protected List<OutboxEntry> appendChecked(List<OutboxMessage> batch) {
    Instant now = clock.instant();
    return commits.appendCommitted(NewEntries.of(batch, now), now, this::insert);
  }

  private void insert(List<OutboxEntry> entries) {
    synchronized (rows) {
      entries.forEach(entry -> rows.put(entry.id(), new StoredRow(entry, null)));
    }
  }

  @Override
  protected Optional<OutboxEntry> read(EntryId id) {
    try {
      return send(() -> readRow(id));
    } catch (LinkFailure lost) {
      throw new OutboxStoreException("outbox store failed: find " + id, lost);
    }
  }

  @Override
  protected boolean remove(EntryId id) {
    synchronized (rows) {
      return rows.remove(id) != null;
    }
  }

  @Override
  protected TransitionKernel transitionKernel() {
    return transitions;
  }

  /**
   * The map's conditional writes, as the {@link #transitionKernel} uses them: for a planted store
   * that builds a kernel of its own over them.
   *
   * @return the writes
   */
  protected final ConditionalWrites conditionalWrites() {
    return conditionalWrites;
  }

  @Override
  protected ClaimKernel claimKernel() {
    return claims;
  }

  /**
   * The map's claim primitives, for the {@link ClaimKernel} every shipped adapter's claims run on:
   * a unit is one request over the {@link Link} holding the lock throughout, so its due query and its
   * writes see no other request between them (a locking transaction, as on PostgreSQL).
   */
  private final class MapClaims implements ClaimStorage {
    @Override
    public <T> T inUnit(Purpose purpose, String what, UnitWork<T> work) {
      try {
        return send(() -> {
          synchronized (rows) {
            return work.run(new MapUnit());
          }
        });
      } catch (LinkFailure lost) {
        throw new OutboxStoreException("outbox store failed: " + what
            + " (entries it claimed return to the queue when their leases end)", lost);
      }
    }

    @Override
    public List<OutboxEntry> firstUnfinishedOfKeys(List<String> keys) {
      try {
        return send(() -> {
          Map<String, OutboxEntry> firstOfEachKey = AppendOrder.firstOfEachKey(decodedRows());
          return keys.stream().map(firstOfEachKey::get).filter(Objects::nonNull).toList();
        });
      } catch (LinkFailure lost) {
        throw new OutboxStoreException("outbox store failed: read the next entry of " + keys, lost);
      }
    }

    @Override
    public boolean claimsAppended() {
      return true;
    }
  }

  /** One claim's reads and writes, under the map's lock. */
  private final class MapUnit implements ClaimStorage.Unit {
    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes) {
      return withinPayloadLimit(selectDue(decodedRows(), now, maxEntries), maxPayloadBytes);
    }

    @Override
    public List<WriteAnswer> writeClaims(List<ClaimWrite> writes) {
      List<WriteAnswer> answers = new ArrayList<>(writes.size());
      for (ClaimWrite write : writes) {
        StoredRow row = rows.get(write.candidate().id());
        if (row != null && row.damage() == null && row.entry().revision() == write.expectedRevision()) {
          rows.put(write.candidate().id(), new StoredRow(claimAsStored(write.candidate(), write.claimed()), null));
          answers.add(WriteAnswer.WRITTEN);
        } else {
          answers.add(WriteAnswer.NOT_WRITTEN);
        }
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return decode(id, rows.get(id));
    }
  }

  /**
   * The map's compare-and-set: stores {@code next} if the row still {@linkplain #stillMatches matches}
   * {@code expected} (and is decodable), in one step under the lock.
   *
   * @param expected the entry as read
   * @param next the entry to store
   * @return whether it was stored
   */
  protected boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
    synchronized (rows) {
      StoredRow current = rows.get(next.id());
      if (current != null && current.damage() == null && stillMatches(current.entry(), expected)) {
        rows.put(next.id(), new StoredRow(next, null));
        return true;
      }
      return false;
    }
  }

  /**
   * What the compare-and-set compares: the revision, which every write raises.
   *
   * @param stored the row now
   * @param expected the entry the write was computed from
   * @return whether the row is still that entry
   */
  protected boolean stillMatches(OutboxEntry stored, OutboxEntry expected) {
    return stored.revision() == expected.revision();
  }

  /**
   * What a transition write whose answer the {@link Link} lost tells the kernel: that it cannot say
   * ({@link WriteOutcomeUnknownException}), so the kernel decides from the row read again.
   *
   * @param write the write that was sent
   * @param lost how its answer was lost
   * @return never, here; a planted store may answer
   */
  protected WriteAnswer lostAnswer(ConditionalWrite write, LinkFailure lost) {
    throw new WriteOutcomeUnknownException("outbox store failed: " + write.kind() + " of " + write.entryId(), lost);
  }

  /** The map's conditional writes: the write hook, then one compare-and-set per element over the link. */
  private final class MapWrites implements ConditionalWrites {
    @Override
    public List<WriteAnswer> writeAll(List<ConditionalWrite> writes) {
      List<WriteAnswer> answers = new ArrayList<>(writes.size());
      for (ConditionalWrite write : writes) {
        writeHook.beforeWrite(write.claim(), write.kind());
        WriteAnswer answer;
        try {
          answer = send(() -> compareAndSet(write.basis(), write.next())) ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN;
        } catch (LinkFailure lost) {
          answer = lostAnswer(write, lost);
        }
        answers.add(answer);
      }
      return answers;
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return InMemoryOutboxStore.this.read(id);
    }
  }

  // ---- operations ----

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
  protected List<OutboxEntry> deadLettersChecked(DeadLetterQuery query) {
    return decodedRows().stream()
        .filter(entry -> entry.status() == EntryStatus.DEAD_LETTERED
            && query.matches(entry.message().topic(), entry.id()))
        .sorted(Comparator.comparing(OutboxEntry::id)).limit(query.limit()).toList();
  }

  @Override
  protected RequeueResult requeueChecked(EntryId id) {
    Optional<OutboxEntry> before = read(id);
    boolean written = before.filter(entry -> entry.status() == EntryStatus.DEAD_LETTERED)
        .map(entry -> compareAndSet(entry, requeuedEntry(entry, clock.instant()))).orElse(false);
    return RequeueResult.of(written, read(id));
  }

  @Override
  protected int purgeFinishedChecked(Duration olderThan, int batchSize) {
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
  protected long countPurgeableChecked(Duration olderThan) {
    Instant cutoff = clock.instant().minus(olderThan);
    return decodedRows().stream().filter(entry -> entry.status().isTerminal() && entry.updatedAt().isBefore(cutoff))
        .count();
  }

  // ---- the raw rows, for the fixture and planted faults ----

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
   * Stores {@code entry} as given over whatever row has its id, with no comparison, as someone
   * editing the backend by hand would: for planted faults that write past the store's rules.
   *
   * @param entry the row to store
   */
  public void overwrite(OutboxEntry entry) {
    Arguments.requireNonNull(entry, "entry");
    synchronized (rows) {
      rows.put(entry.id(), new StoredRow(entry, null));
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

  private Optional<OutboxEntry> readRow(EntryId id) {
    synchronized (rows) {
      return decode(id, rows.get(id));
    }
  }

  private List<OutboxEntry> decodedRows() {
    synchronized (rows) {
      List<OutboxEntry> all = new ArrayList<>();
      rows.forEach((id, row) -> decode(id, row).ifPresent(all::add));
      return all;
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
   * One request over the {@link Link}: cut before it, the map never sees it; cut after it (or held,
   * then let go), the map acts and the answer is lost.
   */
  private <T> T send(Supplier<T> request) {
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

  // ---- the domain steps the map's due query and requeue take, as planted faults see them ----

  /**
   * The commit signal appends go through: a planted fault in the append sequence writes its own
   * sequence of its steps.
   *
   * @return the signal behind {@link #commitNotifications()}
   */
  protected final CommitSignal commitSignal() {
    return commits;
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
   * What the map stores for a claim the kernel computed: the claimed entry itself. A planted fault
   * stores something else, as a backend whose write differs from what it was given would.
   *
   * @param candidate the entry as read by the claim
   * @param claimed the entry as the domain claimed it
   * @return the row to store
   */
  protected OutboxEntry claimAsStored(OutboxEntry candidate, OutboxEntry claimed) {
    return claimed;
  }
}
