package io.claimedoutbox.adapter.mongodb;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.exists;
import static com.mongodb.client.model.Filters.gt;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.lte;
import static com.mongodb.client.model.Filters.or;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoCommandException;
import com.mongodb.MongoException;
import com.mongodb.ReadPreference;
import com.mongodb.WriteConcern;
import com.mongodb.bulk.BulkWriteError;
import com.mongodb.client.ClientSession;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.MongoCursor;
import com.mongodb.client.MongoDatabase;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.IndexOptions;
import com.mongodb.client.model.Indexes;
import com.mongodb.client.model.Sorts;
import com.mongodb.client.result.UpdateResult;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.PayloadBudget;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.ListenState;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.spi.ClaimKernel;
import io.claimedoutbox.port.spi.ClaimStorage;
import io.claimedoutbox.port.spi.ClaimWrite;
import io.claimedoutbox.port.spi.CommitSignal;
import io.claimedoutbox.port.spi.KernelOutboxStoreWithOperations;
import io.claimedoutbox.port.spi.NewEntries;
import io.claimedoutbox.port.spi.StoreTimeClock;
import io.claimedoutbox.port.spi.TransitionKernel;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The outbox on MongoDB: one collection, one document per entry, conditional updates as the
 * compare-and-set. One object implementing all three store contracts; thread-safe.
 *
 * <p><b>Transitions</b> are the {@link TransitionKernel}'s, {@linkplain TransitionKernel#fromSnapshot
 * from the snapshot}, over {@link DocumentConditionalWrites}: one {@code updateOne} whose filter
 * requires the id, the snapshot's revision, status {@code CLAIMED} and the claim's owner and token,
 * and whose update changes only what the transition changes and raises the revision
 * ({@link EntryDocuments#changeUpdate}). A match is {@code APPLIED} with the entry as written: one
 * round trip. No match: one read, and the claim fence decides {@code MISSING}, {@code TERMINAL} or
 * {@code STALE_CLAIM}, or, where the claim still holds the document at a later revision (its holder
 * renewed it), the write is sent again at that revision. A lost answer is decided from the
 * document read again, as on every adapter; a wait the client gave up on is reported unknown with
 * the write's stamp. Every write is decided from the state it was compared with: the store declares
 * {@link StoreCapability#ATOMIC_EVALUATION} and never reports {@code CONCURRENCY_LOST}. A batch
 * ({@link #tryTransitionAll}) is one {@code bulkWrite}.
 *
 * <p><b>Claims</b>: one {@code find} of the oldest N due documents, sorted by {@code (dueAt, _id)},
 * each decoded before anything is written (a damaged one fails the batch with nothing claimed);
 * then one {@code updateOne} per candidate, filtered on its id and the revision read, writing
 * exactly what the domain's {@link OutboxEntry#claimedBy} made of it (so the claim step lives in
 * the domain only): a second worker's update finds the revision moved and matches nothing, and the
 * candidate is skipped. A batch of N costs N + 1 round trips.
 *
 * <p><b>Documents</b> hold the fields of {@link EntryDocuments}; terminal documents have no
 * {@code dueAt}, so the partial due index ({@link #createIndexes()}) holds only claimable entries
 * and does not grow with the delivered history.
 *
 * <p>Every read that decides an outcome goes to the primary; writes use the configured write
 * concern (majority by default).
 */
public final class MongoOutboxStore extends KernelOutboxStoreWithOperations {

  /** The name of the due index {@link #createIndexes()} creates. */
  public static final String DUE_INDEX = "outbox_due";
  /** The name of the ordering-key index {@link #createIndexes()} creates. */
  public static final String KEY_ORDER_INDEX = "outbox_key_order";
  /** The name of the index of finished entries by their last write, for the purge. */
  public static final String FINISHED_INDEX = "outbox_finished";
  /** The name of the index of dead letters by id, for the dead-letter list. */
  public static final String DEAD_LETTER_INDEX = "outbox_dead_letters";

  private final CommitSignal commits;
  private final MongoCommitChannel channel;
  private final MongoCollection<Document> collection;
  private final Clock clock;
  private final MongoOperations operations;
  private final DocumentConditionalWrites documents;
  private final TransitionKernel transitions;
  private final ClaimKernel claims;

  private MongoOutboxStore(Builder builder, MongoClient client) {
    this.collection = client.getDatabase(builder.databaseName)
        .getCollection(builder.collectionName)
        .withWriteConcern(builder.writeConcern)
        .withReadPreference(ReadPreference.primary());
    this.clock = builder.storeTime == null ? builder.clock
        : StoreTimeClock.of(() -> serverNow(client, builder.databaseName), builder.storeTime);
    this.operations = new MongoOperations(collection, clock);
    this.documents = new DocumentConditionalWrites(collection);
    this.transitions = TransitionKernel.fromSnapshot(documents, clock);
    this.claims = new ClaimKernel(new DocumentClaims(), clock);
    this.channel = builder.listen ? new MongoCommitChannel(client, client.getDatabase(builder.databaseName),
        collection)
        : null;
    this.commits = newCommitSignal(channel);
  }

  /**
   * Starts building a store over a configured client. The client is the caller's: its addresses,
   * credentials, TLS and pool are set on it, and the caller closes it; the store never does.
   *
   * @param client the client
   * @return a builder: database {@code outbox}, collection {@code outbox_entries}, write concern
   *     majority, the system UTC clock
   */
  public static Builder builder(MongoClient client) {
    return new Builder(Arguments.requireNonNull(client, "client"));
  }

  /**
   * Creates the four indexes if they do not exist: the due index {@code (dueAt, _id)} and the
   * ordering-key index {@code (orderingKey, createdAt, _id)}, both partial on documents that have a
   * {@code dueAt}, i.e. unfinished ones; for the operations, {@code finishedAt} partial on finished
   * documents and {@code (status, _id)} partial on dead letters. Call it once at deployment, not on every start.
   */
  public void createIndexes() {
    run("create indexes", () -> collection.createIndex(
        Indexes.ascending(EntryDocuments.DUE_AT, EntryDocuments.ID),
        new IndexOptions().name(DUE_INDEX).partialFilterExpression(exists(EntryDocuments.DUE_AT))));
    run("create indexes", () -> collection.createIndex(
        Indexes.ascending(EntryDocuments.ORDERING_KEY, EntryDocuments.CREATED_AT, EntryDocuments.ID),
        new IndexOptions().name(KEY_ORDER_INDEX).partialFilterExpression(exists(EntryDocuments.DUE_AT))));
    run("create indexes", () -> collection.createIndex(Indexes.ascending(EntryDocuments.FINISHED_AT),
        new IndexOptions().name(FINISHED_INDEX).partialFilterExpression(exists(EntryDocuments.FINISHED_AT))));
    run("create indexes", () -> collection.createIndex(Indexes.ascending(EntryDocuments.STATUS, EntryDocuments.ID),
        new IndexOptions().name(DEAD_LETTER_INDEX)
            .partialFilterExpression(eq(EntryDocuments.STATUS, EntryStatus.DEAD_LETTERED.name()))));
  }

  @Override
  public StatusCounts countByStatus() {
    return run("count entries by status", operations::countByStatus);
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    return run("read the oldest due time", operations::oldestDueAge);
  }

  @Override
  protected List<OutboxEntry> deadLettersChecked(DeadLetterQuery query) {
    return run("list dead letters", () -> operations.deadLetters(query));
  }

  @Override
  protected RequeueResult requeueChecked(EntryId id) {
    return run("requeue " + id, () -> operations.requeue(id));
  }

  @Override
  protected long countPurgeableChecked(Duration olderThan) {
    return run("count purgeable entries", () -> operations.countPurgeable(olderThan));
  }

  @Override
  protected int purgeFinishedChecked(Duration olderThan, int batchSize) {
    return run("purge finished entries", () -> operations.purgeFinished(olderThan, batchSize));
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return Set.of(StoreCapability.TRANSACTIONAL_APPEND, StoreCapability.ATOMIC_EVALUATION,
        StoreCapability.CLAIM_BY_KEY, StoreCapability.CLAIM_APPENDED, StoreCapability.CLAIM_ON_APPEND);
  }

  /**
   * {@inheritDoc}
   *
   * <p>One ordered {@code insertMany}. MongoDB writes a batch atomically only inside a transaction:
   * pass a session with {@link #appendAll(ClientSession, List)} when a half-written batch after a
   * lost connection is not acceptable. A drain of this JVM with room may take an entry as it is
   * appended ({@link StoreCapability#CLAIM_ON_APPEND}): it is written claimed and handed over once
   * the insert returned. When the insert fails part way, the entries the server reports inserted
   * (those before the first failed one) are reported committed and the rest not; after a lost
   * connection none is known to be written, and an entry a drain took that was written all the
   * same waits out its lease.
   */
  @Override
  protected List<OutboxEntry> appendChecked(List<OutboxMessage> batch) {
    Instant now = clock.instant();
    List<OutboxEntry> entries = commits.claimOnAppend(NewEntries.of(batch, now), now);
    try {
      run("append", () -> collection.insertMany(entries.stream().map(EntryDocuments::toDocument).toList()));
    } catch (RuntimeException failure) {
      int written = insertedBefore(failure, entries.size());
      commits.notCommitted(entries.subList(written, entries.size()));
      if (written > 0) {
        commits.committed(entries.subList(0, written));
      }
      throw failure;
    }
    commits.committed(entries);
    return entries;
  }

  /** How many entries of an ordered insert the server reports written before it failed. */
  private static int insertedBefore(RuntimeException failure, int size) {
    if (failure.getCause() instanceof MongoBulkWriteException bulk && !bulk.getWriteErrors().isEmpty()) {
      return Math.min(size, bulk.getWriteErrors().stream().mapToInt(BulkWriteError::getIndex).min().orElse(0));
    }
    return 0;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Drains of this store object are told after {@link #appendAll(List)} and after an append in a
   * session without a transaction; after an append in a transaction the caller says when it
   * committed ({@link #entriesCommitted}; the Spring Boot starter does). While a drain runs, commits
   * of other processes are heard through a change stream on the collection where the server has
   * them (a replica set or a sharded cluster; see {@link #listenState()}); on a standalone server
   * their entries are found by polling.
   */
  @Override
  public CommitNotifications commitNotifications() {
    return commits;
  }

  /**
   * What the change stream that hears other processes' appends is doing. It runs while a drain of
   * this store runs; on a server without change streams (standalone, or the in-process stand-in)
   * it ends up {@link ListenState#POLLING_ONLY}, said once at INFO.
   *
   * @return the state now; {@link ListenState#NONE} with {@code listenAcrossProcesses(false)}
   */
  public ListenState listenState() {
    return channel == null ? ListenState.NONE : channel.state();
  }

  /**
   * Tells this JVM's drains of this store that entries appended in a transaction were committed,
   * so they claim them now rather than at their next poll. Calling it without a commit costs the
   * drains an empty claim, never an error.
   */
  public void entriesCommitted() {
    commits.committed();
  }

  /**
   * Appends within the caller's session, joining its transaction when one is active: the entries
   * are written exactly when the caller's transaction commits.
   *
   * <p>In a transaction, call {@link #entriesCommitted()} after the commit for the drains to claim
   * at once; without one, they are told here.
   *
   * @param session the caller's session
   * @param messages what to append
   * @return the entries as they will be stored
   */
  public List<OutboxEntry> appendAll(ClientSession session, List<OutboxMessage> messages) {
    Arguments.requireNonNull(session, "session");
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    return listenedAppend(batch, () -> {
      List<OutboxEntry> entries = NewEntries.of(batch, clock.instant());
      run("append", () -> collection.insertMany(session,
          entries.stream().map(EntryDocuments::toDocument).toList()));
      if (!session.hasActiveTransaction()) {
        commits.committed(entries);
      }
      return entries;
    });
  }

  /**
   * Appends through {@code database}, a handle on this store's database that carries the caller's
   * session — such as the one Spring Data MongoDB's
   * {@code MongoDatabaseUtils.getDatabase(name, factory, SessionSynchronization.ON_ACTUAL_TRANSACTION)}
   * returns, bound to the transaction on the calling thread: the entries are written in that
   * transaction. A plain handle writes on its own, like {@link #appendAll(List)}.
   *
   * @param database a handle on the database this store was built for
   * @param messages what to append
   * @return the entries as they will be stored
   * @throws IllegalArgumentException if {@code database} names another database
   */
  public List<OutboxEntry> appendThrough(MongoDatabase database, List<OutboxMessage> messages) {
    Arguments.requireNonNull(database, "database");
    if (!database.getName().equals(collection.getNamespace().getDatabaseName())) {
      throw new IllegalArgumentException("database must be " + collection.getNamespace().getDatabaseName()
          + ", the store's, was " + database.getName());
    }
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    return listenedAppend(batch, () -> {
      List<OutboxEntry> entries = NewEntries.of(batch, clock.instant());
      MongoCollection<Document> target = database.getCollection(collection.getNamespace().getCollectionName())
          .withWriteConcern(collection.getWriteConcern());
      run("append", () -> target.insertMany(entries.stream().map(EntryDocuments::toDocument).toList()));
      return entries;
    });
  }

  @Override
  protected Optional<OutboxEntry> read(EntryId id) {
    return documents.read(id);
  }

  @Override
  protected boolean remove(EntryId id) {
    return run("delete " + id, () -> collection.deleteOne(eq(EntryDocuments.ID, id.value())).getDeletedCount() == 1);
  }

  @Override
  protected ClaimKernel claimKernel() {
    return claims;
  }

  /**
   * The claim primitives: the candidates by {@link #claimable}, each claim one {@code updateOne}
   * checked against the revision read, writing only what the claim changes. No unit is a transaction:
   * each update is atomic on its document, and one that lost its candidate matches nothing.
   */
  private final class DocumentClaims implements ClaimStorage {
    @Override
    public <T> T inUnit(Purpose purpose, String what, UnitWork<T> work) {
      return work.run(new Unit() {
        @Override
        public List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes) {
          return claimable(what, now, maxEntries, maxPayloadBytes);
        }

        @Override
        public List<WriteAnswer> writeClaims(List<ClaimWrite> writes) {
          List<WriteAnswer> answers = new ArrayList<>(writes.size());
          for (ClaimWrite write : writes) {
            UpdateResult written = run(what + ": " + write.candidate().id(), () -> collection.updateOne(
                and(eq(EntryDocuments.ID, write.candidate().id().value()),
                    eq(EntryDocuments.REVISION, write.expectedRevision())),
                EntryDocuments.changeUpdate(write.candidate(), write.claimed())));
            answers.add(written.getMatchedCount() == 1 ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
          }
          return answers;
        }

        @Override
        public Optional<OutboxEntry> read(EntryId id) {
          return documents.read(id);
        }
      });
    }

    @Override
    public boolean claimsAppended() {
      return true;
    }

    /** Per key, its first unfinished document through the {@code outbox_key_order} index: one round trip a key. */
    @Override
    public List<OutboxEntry> firstUnfinishedOfKeys(List<String> keys) {
      List<OutboxEntry> heads = new ArrayList<>(keys.size());
      for (String key : keys) {
        run("read the next entry of " + key, () -> Optional.ofNullable(collection
            .find(and(eq(EntryDocuments.ORDERING_KEY, key), exists(EntryDocuments.DUE_AT)))
            .sort(Sorts.ascending(EntryDocuments.CREATED_AT, EntryDocuments.ID)).limit(1).first()))
            .map(EntryDocuments::toEntry)
            .ifPresent(heads::add);
      }
      return heads;
    }
  }

  /**
   * The oldest due documents, each decoded (a damaged one fails the claim before anything is
   * written), each the first unfinished entry of its ordering key. Held-back entries are passed over
   * and pages read on (by position in the due order, not by skipping) until enough are found or
   * nothing is due, so no backlog of one key hides other entries; each key's first entry is looked
   * up once per claim.
   */
  private List<OutboxEntry> claimable(String what, Instant now, int maxEntries, long maxPayloadBytes) {
    List<OutboxEntry> claimable = new ArrayList<>();
    PayloadBudget budget = PayloadBudget.of(maxPayloadBytes);
    Map<String, EntryId> firstOfKey = new HashMap<>();
    Bson due = lte(EntryDocuments.DUE_AT, Date.from(now));
    Bson after = due;
    while (claimable.size() < maxEntries) {
      Bson filter = after;
      List<OutboxEntry> page = new ArrayList<>();
      // the cursor is read only while the page's payloads fit the claim's limit (the server sends at
      // most 16 MiB a batch), so a page of large entries is never held whole
      boolean cutByPayload = run(what + ": read due entries", () -> readPage(filter, maxEntries, maxPayloadBytes,
          page));
      lookUpFirstOfKeys(page, firstOfKey);
      for (OutboxEntry entry : page) {
        boolean first = entry.message().orderingKey().map(key -> entry.id().equals(firstOfKey.get(key))).orElse(true);
        if (first && claimable.size() < maxEntries) {
          if (!budget.take(entry.message().payloadSize())) {
            return claimable;
          }
          claimable.add(entry);
        }
      }
      if (cutByPayload || page.size() < maxEntries) {
        break;
      }
      OutboxEntry last = page.get(page.size() - 1);
      Date lastDue = Date.from(last.dueAt().orElseThrow());
      after = and(due, or(gt(EntryDocuments.DUE_AT, lastDue),
          and(eq(EntryDocuments.DUE_AT, lastDue), gt(EntryDocuments.ID, last.id().value()))));
    }
    return claimable;
  }

  /** @return whether reading stopped because the page's payloads reached the limit */
  private boolean readPage(Bson filter, int maxEntries, long maxPayloadBytes, List<OutboxEntry> page) {
    long bytes = 0;
    try (MongoCursor<Document> cursor = collection.find(filter)
        .sort(Sorts.ascending(EntryDocuments.DUE_AT, EntryDocuments.ID)).limit(maxEntries).iterator()) {
      while (cursor.hasNext()) {
        OutboxEntry entry = EntryDocuments.toEntry(cursor.next());
        page.add(entry);
        bytes += entry.message().payloadSize();
        if (bytes >= maxPayloadBytes && cursor.hasNext()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Adds the first unfinished entry of every key in {@code page} not looked up yet: one aggregation
   * over the ordering-key index for all of them.
   */
  private void lookUpFirstOfKeys(List<OutboxEntry> page, Map<String, EntryId> firstOfKey) {
    List<String> keys = page.stream()
        .flatMap(entry -> entry.message().orderingKey().stream())
        .filter(key -> !firstOfKey.containsKey(key))
        .distinct()
        .toList();
    if (keys.isEmpty()) {
      return;
    }
    run("read the first entry of " + keys.size() + " ordering keys", () -> collection.aggregate(List.of(
            Aggregates.match(and(in(EntryDocuments.ORDERING_KEY, keys), exists(EntryDocuments.DUE_AT))),
            Aggregates.sort(Sorts.ascending(EntryDocuments.ORDERING_KEY, EntryDocuments.CREATED_AT, EntryDocuments.ID)),
            Aggregates.group("$" + EntryDocuments.ORDERING_KEY, Accumulators.first("first", "$" + EntryDocuments.ID))))
        .into(new ArrayList<>()))
        .forEach(group -> firstOfKey.put(group.getString("_id"), EntryId.of(group.getString("first"))));
  }

  /**
   * The kernel over one unordered {@code bulkWrite} of updates each checked against the revision of its claim's
   * snapshot; when every one matched (the usual case) that is the only round trip, and each written
   * entry is the snapshot with the transition applied. Otherwise one {@code find} of the batch's
   * ids tells, by write stamp, which landed, and the kernel decides the rest from what it read.
   */
  @Override
  protected TransitionKernel transitionKernel() {
    return transitions;
  }

  /**
   * The primary's time ({@code hello}'s {@code localTime}; servers older than 4.4, and the stand-in,
   * answer only the older {@code isMaster}): one round trip.
   */
  private static Instant serverNow(MongoClient client, String databaseName) {
    MongoDatabase database = client.getDatabase(databaseName).withReadPreference(ReadPreference.primary());
    return run("read the server's time", () -> {
      try {
        return database.runCommand(new Document("hello", 1)).getDate("localTime").toInstant();
      } catch (MongoCommandException unknownCommand) {
        return database.runCommand(new Document("isMaster", 1)).getDate("localTime").toInstant();
      }
    });
  }

  private static <T> T run(String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (MongoException failure) {
      throw new OutboxStoreException("outbox store failed: " + what + ": " + failure.getMessage(), failure);
    }
  }

  /** Builds a {@link MongoOutboxStore}. Not thread-safe. */
  public static final class Builder {
    private final MongoClient client;
    private String databaseName = "outbox";
    private String collectionName = "outbox_entries";
    private WriteConcern writeConcern = WriteConcern.MAJORITY;
    private Clock clock = Clock.systemUTC();
    private Duration storeTime;
    private boolean listen = true;

    private Builder(MongoClient client) {
      this.client = client;
    }

    /**
     * Whether drains of this store hear appends of other processes (default yes): while a drain
     * runs, the store watches the collection's inserts through a change stream (one cursor, one
     * {@code getMore} per 5 s when idle) where the server has change streams. Drains in the
     * appending JVM are woken either way.
     *
     * @param value {@code false} to watch nothing
     * @return this builder
     */
    public Builder listenAcrossProcesses(boolean value) {
      this.listen = value;
      return this;
    }

    /**
     * @param value the database; no {@code / \ . space " $ * < > : | ?}, at most 63 characters
     * @return this builder
     */
    public Builder databaseName(String value) {
      this.databaseName = MongoNames.database(value);
      return this;
    }

    /**
     * @param value the collection; no {@code $}, not {@code system.*}, at most 120 characters
     * @return this builder
     */
    public Builder collectionName(String value) {
      this.collectionName = MongoNames.collection(value);
      return this;
    }

    /**
     * @param value the write concern of every write; majority unless you know why not
     * @return this builder
     */
    public Builder writeConcern(WriteConcern value) {
      this.writeConcern = Arguments.requireNonNull(value, "writeConcern");
      return this;
    }

    /**
     * @param value where the store reads time
     * @return this builder
     */
    public Builder clock(Clock value) {
      this.clock = Arguments.requireNonNull(value, "clock");
      return this;
    }

    /**
     * Takes "now" from the MongoDB primary ({@code hello}'s {@code localTime}) instead of a clock of
     * this JVM, so workers whose clocks disagree still decide leases alike ({@link StoreTimeClock}:
     * asked once, then every {@link StoreTimeClock#DEFAULT_REFRESH}, counted forward in between). Replaces {@link #clock}.
     *
     * @return this builder
     */
    public Builder storeTime() {
      this.storeTime = StoreTimeClock.DEFAULT_REFRESH;
      return this;
    }

    /** @return the store */
    public MongoOutboxStore build() {
      return new MongoOutboxStore(this, client);
    }
  }
}
