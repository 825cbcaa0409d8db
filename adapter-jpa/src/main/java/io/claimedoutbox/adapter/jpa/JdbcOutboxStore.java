package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.JdbcAccess.Repeat;
import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.ListenState;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import io.claimedoutbox.port.spi.ClaimKernel;
import io.claimedoutbox.port.spi.CommitSignal;
import io.claimedoutbox.port.spi.KernelOutboxStoreWithOperations;
import io.claimedoutbox.port.spi.NewEntries;
import io.claimedoutbox.port.spi.StoreTimeClock;
import io.claimedoutbox.port.spi.TransitionKernel;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The outbox on a SQL database (PostgreSQL, MariaDB, H2) over a {@link DataSource}: one object
 * implementing all three store contracts over the {@code outbox_entry} table ({@link OutboxSchema}
 * ships its DDL). Plain JDBC, no JPA provider needed; {@link JpaOutboxStore} is the same store built
 * from an {@code EntityManagerFactory}, with appends on the caller's {@code EntityManager}.
 *
 * <p><b>The database</b> is read once, when the store is built, from a connection's metadata; name it
 * with {@link Builder#database} to build without a connection (a database that is down at startup).
 *
 * <p><b>Transitions</b> are the {@link TransitionKernel}'s, {@linkplain TransitionKernel#fromSnapshot
 * from the snapshot}, over {@link SqlConditionalWrites}: one conditional {@code UPDATE … WHERE id = ?
 * AND revision = ?} per transition, the revision of the claim's snapshot, and the whole of
 * {@link #tryTransitionAll} in one statement (PostgreSQL) or one JDBC batch: one round trip for
 * applied transitions. A transition that does not match is decided from the row read again:
 * missing, terminal or stale with nothing written, or written again at the revision read. Every
 * write is decided from the state it was compared with, so the store declares
 * {@link StoreCapability#ATOMIC_EVALUATION}: it never reports {@code CONCURRENCY_LOST}.
 *
 * <p><b>Claims</b> are the {@link ClaimKernel}'s over {@link DueEntryClaimer}, which uses
 * {@link ClaimLocking}: {@code SKIP LOCKED} batches on PostgreSQL and MariaDB (select, one
 * set-based update, commit), an optimistic fallback elsewhere. The next entries of ordering keys
 * cost two round trips whatever the number of keys (on MariaDB and H2 one more read per 128 keys
 * beyond the first 128): one read of every key's first unfinished row, an index probe each, then one
 * write of the claims of those that are due, each checked against the revision read.
 *
 * <p><b>Lost acknowledgements.</b> When a write fails in a way that does not prove it was not
 * applied, the store re-reads the row and decides from the write stamp it stored (the kernel's
 * {@link io.claimedoutbox.port.spi.LostAcknowledgement}); it never guesses {@code APPLIED}.
 *
 * <p>Thread-safe: every call borrows its own connection. Appends that must join the caller's
 * transaction use {@link #appendOn} or {@link #beginAppendOn}.
 */
public sealed class JdbcOutboxStore extends KernelOutboxStoreWithOperations permits JpaOutboxStore {

  private final JdbcAccess jdbc;
  private final SqlDialect dialect;
  private final Clock clock;
  private final DueEntryClaimer claimer;
  private final ClaimKernel claims;
  private final ClaimLocking claimLocking;
  private final SqlConditionalWrites rows;
  private final TransitionKernel transitions;
  private final SqlOperations operations;
  private final CommitSignal commits;
  /** The channel to other JVMs, or {@code null} where the database has none. */
  private final PostgresCommitChannel channel;

  JdbcOutboxStore(Builder<?> builder) {
    this.jdbc = new JdbcAccess(builder.connections);
    this.dialect = builder.dialect();
    this.clock = builder.storeTime == null ? builder.clock : StoreTimeClock.of(this::serverNow, builder.storeTime);
    this.claimLocking = builder.claimLocking == ClaimLocking.AUTO
        ? (dialect.hasSkipLocked() ? ClaimLocking.SKIP_LOCKED : ClaimLocking.OPTIMISTIC)
        : builder.claimLocking;
    this.claimer = claimLocking == ClaimLocking.SKIP_LOCKED
        ? new SkipLockedClaimer(jdbc, dialect) : new OptimisticClaimer(jdbc, dialect);
    this.rows = new SqlConditionalWrites(jdbc, dialect);
    this.transitions = TransitionKernel.fromSnapshot(rows, clock);
    this.claims = new ClaimKernel(claimer, clock);
    this.operations = new SqlOperations(jdbc, dialect, clock);
    this.channel = builder.listen && dialect == SqlDialect.POSTGRESQL && hasPostgresDriver()
        ? new PostgresCommitChannel(jdbc) : null;
    this.commits = newCommitSignal(channel);
  }

  private static boolean hasPostgresDriver() {
    try {
      Class.forName("org.postgresql.PGConnection", false, JdbcOutboxStore.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError absent) {
      return false;
    }
  }

  /**
   * Starts building a store over {@code dataSource}: the application's pool, whose connections reach
   * the database holding the {@code outbox_entry} table (see {@link OutboxSchema}).
   *
   * @param dataSource where the store borrows its connections; the store never closes it
   * @return a builder with the system UTC clock and {@link ClaimLocking#AUTO}, reading the database
   *     from a connection when it builds
   */
  public static Builder<JdbcOutboxStore> builder(DataSource dataSource) {
    Arguments.requireNonNull(dataSource, "dataSource");
    return new Builder<>(ConnectionSource.of(dataSource), () -> databaseOf(dataSource), JdbcOutboxStore::new);
  }

  private static SqlDialect databaseOf(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return SqlDialect.ofProduct(connection.getMetaData().getDatabaseProductName());
    } catch (SQLException failure) {
      throw new OutboxStoreException("outbox store failed: cannot tell which database the outbox is on (reading a"
          + " connection's metadata failed: " + failure.getMessage() + "); start the database, or name it with"
          + " the builder's database(…) to build without a connection", failure);
    }
  }

  /** @return the claim locking this store uses, {@code AUTO} resolved */
  public ClaimLocking claimLocking() {
    return claimLocking;
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return Set.of(StoreCapability.TRANSACTIONAL_APPEND, StoreCapability.ATOMIC_EVALUATION,
        StoreCapability.CLAIM_BY_KEY, StoreCapability.CLAIM_BY_KEYS, StoreCapability.CLAIM_APPENDED,
        StoreCapability.CLAIM_ON_APPEND);
  }

  /**
   * {@inheritDoc}
   *
   * <p>One transaction with one JDBC batch of inserts. Entries a drain of this JVM takes
   * ({@link StoreCapability#CLAIM_ON_APPEND}) are returned as written, claimed by it.
   */
  @Override
  protected List<OutboxEntry> appendChecked(List<OutboxMessage> batch) {
    Instant now = clock.instant();
    try {
      return commits.appendCommitted(NewEntries.of(batch, now), now,
          written -> jdbc.inTransaction(Repeat.ONCE, connection -> insert(connection, written)));
    } catch (SQLException | RuntimeException failure) {
      throw JdbcAccess.failure("append", failure);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Drains of this store object are told after {@link #appendAll} commits and after a
   * transaction of {@link JpaOutboxStore#appendWithin} commits; after {@link #appendOn} the caller says when
   * ({@link #entriesCommitted}). On PostgreSQL (unless {@link Builder#listenAcrossProcesses} is off)
   * they also hear commits of other processes; see the builder.
   */
  @Override
  public CommitNotifications commitNotifications() {
    return commits;
  }

  /**
   * What this store's session listening for other processes' commits is doing: on PostgreSQL it is
   * opened with the first drain that subscribes and checks itself with a probe; behind a
   * transaction pooler it ends up {@link ListenState#POLLING_ONLY}.
   *
   * @return the state now; {@link ListenState#NONE} where the store has no such session
   */
  public ListenState listenState() {
    return channel == null ? ListenState.NONE : channel.state();
  }

  /**
   * Tells the drains (of this JVM and, on PostgreSQL, of others) that entries appended with
   * {@link #appendOn} were committed, so they claim them now rather than at their next poll. Call it
   * after the commit; calling it without one costs the drains an empty claim, never an error.
   */
  public void entriesCommitted() {
    entriesCommitted(List.of());
  }

  /**
   * {@link #entriesCommitted()} for entries this store appended with {@link #appendOn}: the drains
   * of this JVM claim exactly these ({@link #claimAppended}: one write, no due query).
   *
   * @param appended what {@code appendOn} returned, committed
   */
  public void entriesCommitted(List<OutboxEntry> appended) {
    Arguments.requireNonNull(appended, "appended");
    commits.committed(appended);
  }

  /**
   * Appends within a transaction the caller holds, through {@code transaction}'s connection, and tells
   * the drains of this store when it completes; see {@link JpaOutboxStore#appendWithin}.
   */
  List<OutboxEntry> appendJoined(JoinedTransaction transaction, List<OutboxMessage> batch) {
    return listenedAppend(batch, () -> appendJoinedChecked(transaction, batch));
  }

  private List<OutboxEntry> appendJoinedChecked(JoinedTransaction transaction, List<OutboxMessage> batch) {
    Instant now = clock.instant();
    try {
      // registering for the transaction's end is part of the write: if it fails, nobody would
      // report that end, so the append fails and its entries are reported not committed
      return commits.appendUncommitted(NewEntries.of(batch, now), now, written -> {
        transaction.run(connection -> insert(connection, written));
        transaction.onCompletion(() -> commits.committed(written), () -> commits.notCommitted(written));
      });
    } catch (RuntimeException failure) {
      throw JdbcAccess.failure("append", failure);
    }
  }

  /**
   * Appends on the caller's JDBC connection, inside the transaction open on it (plain JDBC, jOOQ,
   * MyBatis, or the connection a Spring transaction holds): the entries are written exactly when the
   * caller commits, and not at all when it rolls back. The connection stays the caller's: neither
   * committed nor closed here. The store cannot see that commit: call {@link #entriesCommitted()}
   * after it for the drains to claim at once (the Spring Boot starter does), or they find the
   * entries at their next poll.
   *
   * @param connection a connection with auto-commit off, to the outbox's database
   * @param messages what to append
   * @return the entries as they will be stored once the caller commits
   * @throws IllegalStateException if the connection is in auto-commit mode (the append would commit
   *     on its own, outside the caller's transaction)
   */
  public List<OutboxEntry> appendOn(Connection connection, List<OutboxMessage> messages) {
    Arguments.requireNonNull(connection, "connection");
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    try {
      requireTransaction(connection, "appendOn");
    } catch (SQLException failure) {
      throw JdbcAccess.failure("append", failure);
    }
    return listenedAppend(batch, () -> {
      List<OutboxEntry> appended = NewEntries.of(batch, clock.instant());
      try {
        insert(connection, appended);
        return appended;
      } catch (SQLException failure) {
        throw JdbcAccess.failure("append", failure);
      }
    });
  }

  /**
   * {@link #appendOn} for a caller that reports how its transaction ended: in exchange a drain of
   * this JVM with room may take an entry claimed on append ({@link StoreCapability#CLAIM_ON_APPEND})
   * and handle it as soon as the commit is reported, with no claim round trip. The caller must call
   * {@link PendingAppend#committed()} after the commit or {@link PendingAppend#rolledBack()} after a
   * rollback (the Spring Boot starter does both); an entry whose commit is never reported waits out
   * its drain's lease (30 s by default) before any drain takes it.
   *
   * @param connection a connection with auto-commit off, to the outbox's database
   * @param messages what to append
   * @return the entries as they will be stored once the caller commits, and where to report it
   * @throws IllegalStateException if the connection is in auto-commit mode
   */
  public PendingAppend beginAppendOn(Connection connection, List<OutboxMessage> messages) {
    Arguments.requireNonNull(connection, "connection");
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    try {
      requireTransaction(connection, "beginAppendOn");
    } catch (SQLException failure) {
      throw JdbcAccess.failure("append", failure);
    }
    List<OutboxEntry> written = listenedAppend(batch, () -> {
      Instant now = clock.instant();
      try {
        return commits.appendUncommitted(NewEntries.of(batch, now), now, claimed -> insert(connection, claimed));
      } catch (SQLException | RuntimeException failure) {
        throw JdbcAccess.failure("append", failure);
      }
    });
    return new PendingAppend(written, () -> commits.committed(written), () -> commits.notCommitted(written));
  }

  private static void requireTransaction(Connection connection, String method) throws SQLException {
    if (connection.getAutoCommit()) {
      throw new IllegalStateException(method + " needs a connection in a transaction (auto-commit off)");
    }
  }

  private Void insert(Connection connection, List<OutboxEntry> entries) throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement(EntryRows.INSERT)) {
      for (OutboxEntry entry : entries) {
        EntryRows.bindInsert(insert, entry, dialect);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    return null;
  }

  @Override
  protected Optional<OutboxEntry> read(EntryId id) {
    return rows.read(id);
  }

  @Override
  protected boolean remove(EntryId id) {
    try {
      return jdbc.autoCommitted(Repeat.ONCE, connection -> {
        try (PreparedStatement delete = connection.prepareStatement(EntryRows.DELETE)) {
          delete.setString(1, id.value());
          return delete.executeUpdate() == 1;
        }
      });
    } catch (SQLException failure) {
      throw JdbcAccess.failure("delete " + id, failure);
    }
  }

  @Override
  protected ClaimKernel claimKernel() {
    return claims;
  }

  @Override
  protected TransitionKernel transitionKernel() {
    return transitions;
  }

  @Override
  public StatusCounts countByStatus() {
    try {
      return operations.countByStatus();
    } catch (SQLException failure) {
      throw JdbcAccess.failure("count entries by status", failure);
    }
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    try {
      return operations.oldestDueAge();
    } catch (SQLException failure) {
      throw JdbcAccess.failure("read the oldest due time", failure);
    }
  }

  @Override
  protected List<OutboxEntry> deadLettersChecked(DeadLetterQuery query) {
    try {
      return operations.deadLetters(query);
    } catch (SQLException failure) {
      throw JdbcAccess.failure("list dead letters", failure);
    }
  }

  @Override
  protected RequeueResult requeueChecked(EntryId id) {
    try {
      return operations.requeue(id);
    } catch (SQLException failure) {
      throw JdbcAccess.failure("requeue " + id, failure);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>One statement over an index of finished rows only (migration V3), so claims never wait on it.
   */
  @Override
  protected int purgeFinishedChecked(Duration olderThan, int batchSize) {
    try {
      return operations.purgeFinished(olderThan, batchSize);
    } catch (SQLException failure) {
      throw JdbcAccess.failure("purge finished entries", failure);
    }
  }

  @Override
  protected long countPurgeableChecked(Duration olderThan) {
    try {
      return operations.countPurgeable(olderThan);
    } catch (SQLException failure) {
      throw JdbcAccess.failure("count purgeable entries", failure);
    }
  }

  /** The database server's time: one query. */
  private Instant serverNow() {
    try {
      return jdbc.autoCommitted(Repeat.SAFE, connection -> {
        try (Statement statement = connection.createStatement();
            ResultSet row = statement.executeQuery(dialect.currentTimeQuery())) {
          row.next();
          return dialect.getInstant(row, 1);
        }
      });
    } catch (SQLException failure) {
      throw JdbcAccess.failure("read the database's time", failure);
    }
  }

  /**
   * Builds a {@link JdbcOutboxStore} (or a {@link JpaOutboxStore}). Not thread-safe.
   *
   * @param <S> the store it builds
   */
  public static final class Builder<S extends JdbcOutboxStore> {
    private final ConnectionSource connections;
    private final Supplier<SqlDialect> detectedDialect;
    private final Function<Builder<S>, S> construct;
    private OutboxDatabase database;
    private Clock clock = Clock.systemUTC();
    private Duration storeTime;
    private ClaimLocking claimLocking = ClaimLocking.AUTO;
    private boolean listen = true;

    Builder(ConnectionSource connections, Supplier<SqlDialect> detectedDialect, Function<Builder<S>, S> construct) {
      this.connections = connections;
      this.detectedDialect = detectedDialect;
      this.construct = construct;
    }

    /**
     * Names the database instead of reading it from a connection when the store is built, so a
     * store can be built while its database is down (its calls then fail until it is up).
     *
     * @param value the database
     * @return this builder
     */
    public Builder<S> database(OutboxDatabase value) {
      this.database = Arguments.requireNonNull(value, "database");
      return this;
    }

    /**
     * @param value where the store reads time (claim times, leases, update times)
     * @return this builder
     */
    public Builder<S> clock(Clock value) {
      this.clock = Arguments.requireNonNull(value, "clock");
      return this;
    }

    /**
     * Takes "now" from the database server instead of a clock of this JVM, so workers whose clocks
     * disagree still decide leases alike ({@link StoreTimeClock}: asked once, then every {@link StoreTimeClock#DEFAULT_REFRESH},
     * counted forward in between). Replaces {@link #clock}.
     *
     * @return this builder
     */
    public Builder<S> storeTime() {
      this.storeTime = StoreTimeClock.DEFAULT_REFRESH;
      return this;
    }

    /**
     * @param value how batch claims avoid handing a row out twice
     * @return this builder
     */
    public Builder<S> claimLocking(ClaimLocking value) {
      this.claimLocking = Arguments.requireNonNull(value, "claimLocking");
      return this;
    }

    /**
     * Whether drains of this store hear appends committed by other JVMs (default yes). On PostgreSQL
     * with its own JDBC driver that is {@code LISTEN}/{@code NOTIFY}: one pool connection is held
     * while a drain of this store runs, and each append (or burst of appends) sends one
     * {@code NOTIFY} after its commit. Other databases have no such channel; drains in the JVM
     * that appends are woken either way.
     *
     * @param value {@code false} to send and hear no notifications across JVMs
     * @return this builder
     */
    public Builder<S> listenAcrossProcesses(boolean value) {
      this.listen = value;
      return this;
    }

    /**
     * @return the store
     * @throws OutboxStoreException when no database was named and none can be read from a connection
     */
    public S build() {
      return construct.apply(this);
    }

    private SqlDialect dialect() {
      return database != null ? SqlDialect.of(database) : detectedDialect.get();
    }
  }
}
