package io.claimedoutbox.adapter.jpa;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * What the store's own SQL needs to know about its database, decided once when the store is built:
 * how instants are kept (PostgreSQL and H2 columns carry a time zone; MariaDB's {@code DATETIME}
 * holds UTC wall time, as the JPA mapping writes it with {@code hibernate.jdbc.time_zone=UTC}) and
 * whether {@code SKIP LOCKED} exists.
 */
enum SqlDialect {
  POSTGRESQL(true, true),
  MARIADB(false, true),
  OTHER(true, false);

  private final boolean zonedTimestamps;
  private final boolean skipLocked;

  SqlDialect(boolean zonedTimestamps, boolean skipLocked) {
    this.zonedTimestamps = zonedTimestamps;
    this.skipLocked = skipLocked;
  }

  /** The dialect of a database the caller named. */
  static SqlDialect of(OutboxDatabase database) {
    return switch (database) {
      case POSTGRESQL -> POSTGRESQL;
      case MARIADB -> MARIADB;
      case H2 -> OTHER;
    };
  }

  /**
   * The dialect of a database by the product name its driver reports
   * ({@link java.sql.DatabaseMetaData#getDatabaseProductName}).
   */
  static SqlDialect ofProduct(String productName) {
    return OutboxDatabase.ofProductName(productName).map(SqlDialect::of).orElse(OTHER);
  }

  boolean hasSkipLocked() {
    return skipLocked;
  }

  /**
   * Whether a locking read may carry the ordering-key subquery. PostgreSQL locks only the rows of
   * the outer table and reads the subquery from its snapshot; InnoDB may read the subquery's rows
   * with locks too, and with {@code SKIP LOCKED} would then pass over a locked earlier entry of a
   * key, so MariaDB finds the candidates first without locks and locks them by id after.
   */
  boolean checksKeysWhileLocking() {
    return this != MARIADB;
  }

  /**
   * Steers the due query of a locking claim, in the claim's transaction, to walking the due index
   * in its own order. The query asks for the first N due rows by {@code (due_at, id)}, which that
   * index serves without a sort; but an outbox is analysed while nearly empty and then meets a
   * burst, and from such statistics PostgreSQL estimates a handful of due rows and prefers reading
   * every due row (payloads too) and sorting them all: each claim then costs the whole backlog
   * (17 ms per claim of 500 at 20,000 due, against 0.4 ms by the index). With bitmap and sequential
   * scans off for this transaction only index scans remain, and the one in the index's order needs
   * no sort, so it is the cheapest whatever the estimate. JIT compilation is off too: it pays only
   * for long queries and costs a claim tens of milliseconds when a cost estimate crosses its
   * threshold. And the plan is the generic one of the prepared statement (the driver prepares it on the
   * server after a few runs), planned once per connection:
   * with scans steered it is the same index walk, and planning the claim's statement afresh each time cost
   * about as much as running it (0.25–1 ms per claim; the claim of all rows has a dozen subqueries). MariaDB
   * and H2 need nothing.
   */
  void steerDueQuery(Connection connection) throws SQLException {
    if (this != POSTGRESQL) {
      return;
    }
    try (PreparedStatement settings = connection.prepareStatement(STEER_TO_INDEXES)) {
      settings.execute();
    }
  }

  /**
   * PostgreSQL's settings for the rest of the transaction that leave index scans as the only way to
   * a row, without JIT, with the prepared statement's generic plan ({@link #steerDueQuery}). Sent
   * before a statement in the same message series, they hold for it even when autocommitted: the
   * extended protocol runs every statement up to the next Sync in one implicit transaction.
   */
  static final String STEER_TO_INDEXES =
      "SELECT set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true),"
          + " set_config('jit', 'off', true), set_config('plan_cache_mode', 'force_generic_plan', true)";

  /**
   * The column the ordering-key probe looks a key up in. PostgreSQL indexes {@code ordering_key}
   * partially, on unfinished rows only; MariaDB and H2 have no partial indexes, so their schema adds
   * {@code unfinished_key}, generated as the ordering key while {@code due_at} is set and NULL after,
   * and indexes that — otherwise the probe would walk past every finished entry of the key.
   */
  String unfinishedKeyColumn() {
    return this == POSTGRESQL ? "ordering_key" : "unfinished_key";
  }

  /**
   * The condition that a row of {@code table} is an unfinished entry of {@code key}, for a probe of the
   * key-order index. PostgreSQL's says {@code due_at IS NOT NULL} too, which is what selects its
   * partial index. Elsewhere {@link #unfinishedKeyColumn} is already NULL once {@code due_at} is, so
   * the column alone says it, and saying {@code due_at} as well made MariaDB read each candidate's row
   * rather than the index: its due query's walk, a probe per keyed due row, took 350–670 ms in some
   * runs (100 keys, 20,000 entries) instead of about 20.
   */
  String unfinishedOfKey(String table, String key) {
    String probe = table + "." + unfinishedKeyColumn() + " = " + key;
    return this == POSTGRESQL ? probe + " AND " + table + ".due_at IS NOT NULL" : probe;
  }

  /**
   * How many probes a union that looks up {@code keys} keys asks for. H2 keeps a statement's plan by
   * its text, so it asks for a power of two (the caller repeats the last key) and a few texts serve
   * every count. MariaDB's Connector/J sends the text and the server plans every probe of the union
   * every time, so padding only costs there (35–40 keys padded to 64 probes: 3.5 ms a call; 38 alone,
   * 2.4 ms).
   */
  int probesFor(int keys) {
    return this == MARIADB ? keys : Integer.highestOneBit(keys * 2 - 1);
  }

  /**
   * Whether a {@code WITH} query's parameters reach its tables. H2 binds none there (a query over a
   * {@code WITH} table filtered by a parameter finds nothing whatever is bound), so its claim is
   * written with derived tables instead ({@link EntryRows#dueQuery}).
   */
  boolean bindsParametersInWith() {
    return this != OTHER;
  }

  /**
   * Whether a claim may find the keys' heads by the key scan ({@link DueQueries}). MariaDB 10.11 runs
   * the recursive scan far slower than a walk of the keyed due rows (a claim of 50 took 472 ms over
   * 100 keys, against 149 ms walking), so it always walks.
   */
  boolean scansKeys() {
    return this == POSTGRESQL;
  }

  /**
   * The condition, with the claim's time as its one parameter, that picks the due rows without an
   * ordering key from their own index ({@code outbox_entry_unkeyed_due}): PostgreSQL's is partial,
   * MariaDB and H2 index the generated {@code unkeyed_due_at}, due_at where the row has no key.
   */
  String unkeyedDue() {
    return this == POSTGRESQL ? "due_at <= ? AND ordering_key IS NULL" : "unkeyed_due_at <= ?";
  }

  /** The first column of {@link #unkeyedDue()}'s index, which holds the row's due time; then id. */
  String unkeyedDueColumn() {
    return this == POSTGRESQL ? "due_at" : "unkeyed_due_at";
  }

  /** {@link #unkeyedDue()} for the due rows with an ordering key ({@code outbox_entry_keyed_due}). */
  String keyedDue() {
    return this == POSTGRESQL ? "due_at <= ? AND ordering_key IS NOT NULL" : "keyed_due_at <= ?";
  }

  /** The first column of {@link #keyedDue()}'s index; then id. */
  String keyedDueColumn() {
    return this == POSTGRESQL ? "due_at" : "keyed_due_at";
  }

  void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
    if (instant == null) {
      statement.setNull(index, zonedTimestamps ? Types.TIMESTAMP_WITH_TIMEZONE : Types.TIMESTAMP);
    } else if (zonedTimestamps) {
      statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    } else {
      statement.setObject(index, LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    }
  }

  /**
   * The condition that picks dead letters with ids after the one bound: PostgreSQL's partial index
   * holds dead letters' ids in byte order ({@code COLLATE "C"}, the order of {@code String}); MariaDB
   * and H2 index the generated {@code dead_letter_id}, set only on dead letters.
   */
  String deadLetterAfter() {
    return this == POSTGRESQL ? "status = 'DEAD_LETTERED' AND (id COLLATE \"C\") > ?" : "dead_letter_id > ?";
  }

  /** The order of {@link #deadLetterAfter()}'s index. */
  String deadLetterOrder() {
    return this == POSTGRESQL ? "(id COLLATE \"C\")" : "dead_letter_id";
  }

  /**
   * One purge batch: finished rows whose last write is before the bound cutoff, oldest first, at
   * most the bound limit. PostgreSQL picks them once, in a materialized CTE (a limited {@code IN}
   * subquery may be run again per row and delete more than the limit), with {@code SKIP LOCKED}, and checks the cutoff again
   * on the row it deletes (a dead letter requeued meanwhile is then left alone); MariaDB deletes in
   * one ordered, limited statement; H2 picks them in a subquery and checks the cutoff again too.
   */
  String purgeStatement() {
    return switch (this) {
      case POSTGRESQL -> "WITH picked AS MATERIALIZED (SELECT id FROM outbox_entry WHERE due_at IS NULL"
          + " AND updated_at < ? ORDER BY updated_at LIMIT ? FOR UPDATE SKIP LOCKED)"
          + " DELETE FROM outbox_entry USING picked WHERE outbox_entry.id = picked.id AND due_at IS NULL AND updated_at < ?";
      case MARIADB -> "DELETE FROM outbox_entry WHERE finished_at < ? ORDER BY finished_at LIMIT ?";
      case OTHER -> "DELETE FROM outbox_entry WHERE id IN (SELECT id FROM outbox_entry WHERE finished_at < ?"
          + " ORDER BY finished_at LIMIT ?) AND finished_at < ?";
    };
  }

  /** How many rows {@link #purgeStatement()} would pick with no limit: over the same index of finished rows. */
  String purgeableCount() {
    return this == POSTGRESQL ? "SELECT COUNT(*) FROM outbox_entry WHERE due_at IS NULL AND updated_at < ?"
        : "SELECT COUNT(*) FROM outbox_entry WHERE finished_at < ?";
  }

  /** Whether {@link #purgeStatement()} binds the cutoff a second time, third. */
  boolean purgeRechecksCutoff() {
    return this != MARIADB;
  }

  /** The query that reads the server's current time, to the microsecond where the server keeps it. */
  String currentTimeQuery() {
    return switch (this) {
      case POSTGRESQL -> "SELECT clock_timestamp()";
      case MARIADB -> "SELECT UTC_TIMESTAMP(6)";
      case OTHER -> "SELECT CURRENT_TIMESTAMP";
    };
  }

  /** The server's time from the one column {@link #currentTimeQuery()} selects. */
  Instant getInstant(ResultSet row, int column) throws SQLException {
    return getStoredInstant(row, column);
  }

  /**
   * An instant column of an entry row, null when the column is. PostgreSQL's {@code timestamptz} is
   * read as a {@link java.sql.Timestamp}, which its driver builds from the instant alone; asked for
   * an {@code OffsetDateTime}, the driver builds new zone rules on every call, several times the
   * work for six columns of every row a claim reads.
   */
  Instant getStoredInstant(ResultSet row, int column) throws SQLException {
    if (this == POSTGRESQL) {
      java.sql.Timestamp value = row.getTimestamp(column);
      return value == null ? null : value.toInstant();
    }
    if (zonedTimestamps) {
      OffsetDateTime value = row.getObject(column, OffsetDateTime.class);
      return value == null ? null : value.toInstant();
    }
    LocalDateTime value = row.getObject(column, LocalDateTime.class);
    return value == null ? null : value.toInstant(ZoneOffset.UTC);
  }
}
