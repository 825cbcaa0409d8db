package io.claimedoutbox.adapter.jpa;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The SQL a claim finds its due rows with. Rows without an ordering key and rows with one are in
 * separate due indexes ({@code V5__due_indexes_by_key.sql}), so neither kind is found only after
 * reading past the other, and the keys' heads are found without reading past held-back entries
 * where a few keys hold back many ({@link #keyScan}). Every query returns the oldest due of the
 * claimable rows first, at most {@code :limit}, and after the row's own columns two more: how many
 * keys the key scan found ({@link #KEYS_FOUND}) and whether keyed rows are due ({@link #KEYED_DUE}).
 *
 * <p>The query for all rows locks up to a batch of each kind before it keeps the oldest batch of them:
 * the rows it leaves stay locked only until the claim commits, a few milliseconds in which another
 * claim skips them (and takes fewer), never one that could hand a row out twice.
 */
final class DueQueries {

  /** Which rows a query considers. */
  enum Kind {
    /**
     * Rows without an ordering key, read straight from their index, and only while no keyed row is
     * due (so the result is the oldest due of all claimable rows, or nothing): the one index scan an
     * outbox without ordering keys needs.
     */
    UNKEYED_ONLY,
    /** Rows without a key and the keys' heads, the oldest due of both. */
    ALL
  }

  /**
   * The most keys a claim's key scan visits: with more, the heads are found by walking the keyed due
   * rows instead (see {@link #keyScan}).
   */
  static final int KEY_SCAN_LIMIT = 1_000;

  /** Where {@link #KEYS_FOUND} and {@link #KEYED_DUE} are in {@link #rows} ({@link EntryRows#COLUMNS} first). */
  static final int ROWS_KEYS_FOUND = EntryColumn.count() + 1;

  static final int ROWS_KEYED_DUE = EntryColumn.count() + 2;

  /** The columns of {@link #ids}: the id, the payload's size, then as in {@link #rows}. */
  static final int IDS_ID = 1;

  static final int IDS_PAYLOAD_SIZE = 2;

  static final int IDS_KEYS_FOUND = 4;

  static final int IDS_KEYED_DUE = 5;

  /** How many keys the key scan found, at most {@link #KEY_SCAN_LIMIT} + 1; -1 when it did not run. */
  private static final String KEYS_FOUND = "keys_found";

  /** 1 when a keyed row is due, else 0. */
  private static final String KEYED_DUE = "keyed_due";

  private static final Pattern PARAMETER = Pattern.compile(":(now|limit|scan|budget)\\b");

  private static final Map<Shape, Query> BUILT = new ConcurrentHashMap<>();

  /** What tells one built query from another: a claim looks its query up without building a string. */
  private record Shape(SqlDialect dialect, Kind kind, boolean idsOnly, boolean lock, boolean payloadLimited) {}

  private DueQueries() {}

  /**
   * A statement with its parameters' names in order.
   *
   * @param sql the statement, with {@code ?} for each parameter
   * @param parameters {@code now}, {@code limit}, {@code scan} or {@code budget}, in order
   */
  record Query(String sql, List<String> parameters) {

    static Query of(String template) {
      List<String> names = new ArrayList<>();
      Matcher parameter = PARAMETER.matcher(template);
      while (parameter.find()) {
        names.add(parameter.group(1));
      }
      return new Query(PARAMETER.matcher(template).replaceAll("?"), List.copyOf(names));
    }

    /**
     * Binds a claim of at most {@code limit} rows due at {@code now}, finding the keys' heads by
     * the key scan when {@code scanKeys}, and keeping the payloads within {@code budget} where the
     * query is cut to one.
     */
    void bind(PreparedStatement select, SqlDialect dialect, Instant now, int limit, boolean scanKeys, long budget)
        throws SQLException {
      int index = 1;
      for (String name : parameters) {
        switch (name) {
          case "now" -> dialect.setInstant(select, index, now);
          case "limit" -> select.setInt(index, limit);
          case "scan" -> select.setInt(index, scanKeys ? 1 : 0);
          default -> select.setLong(index, budget);
        }
        index++;
      }
    }
  }

  /**
   * The claimable rows with every column: locked with {@code SKIP LOCKED} when {@code lock}, cut to
   * the rows whose payloads fit {@code :budget} when {@code payloadLimited} (the database sums the
   * sizes in due order and returns the first row whatever its size and each later one while the sum
   * stays within the budget; rows left out stay locked only until the claim commits, and their
   * payloads are never sent).
   */
  static Query rows(SqlDialect dialect, Kind kind, boolean lock, boolean payloadLimited) {
    return BUILT.computeIfAbsent(new Shape(dialect, kind, false, lock, payloadLimited), ignored -> {
      String query = template(dialect, kind, EntryRows.COLUMNS, lock);
      return Query.of(payloadLimited ? withinBudget(query) : query);
    });
  }

  /**
   * The claimable rows' ids and payload sizes, read without locks (the first step where locks and
   * subqueries do not mix, {@link SqlDialect#checksKeysWhileLocking}).
   */
  static Query ids(SqlDialect dialect, Kind kind) {
    return BUILT.computeIfAbsent(new Shape(dialect, kind, true, false, false), ignored ->
        Query.of(template(dialect, kind, "id, OCTET_LENGTH(payload) AS payload_size, due_at", false)));
  }

  private static String template(SqlDialect dialect, Kind kind, String columns, boolean lock) {
    String keyedDue = "CASE WHEN EXISTS (SELECT 1 FROM outbox_entry WHERE " + keyedDue(dialect) + ") THEN 1 ELSE 0 END";
    String unkeyedDue = " FROM outbox_entry e WHERE " + dialect.unkeyedDue().replace("?", ":now");
    String unkeyedOrder = " ORDER BY " + dialect.unkeyedDueColumn() + ", id LIMIT :limit";
    String locking = lock ? " FOR UPDATE SKIP LOCKED" : "";
    if (kind == Kind.UNKEYED_ONLY) {
      return "SELECT " + columns + ", -1 AS " + KEYS_FOUND + ", 0 AS " + KEYED_DUE + unkeyedDue
          + " AND NOT EXISTS (SELECT 1 FROM outbox_entry k WHERE " + keyedDue(dialect) + ")" + unkeyedOrder + locking;
    }
    String unkeyed = "SELECT " + columns + unkeyedDue;
    if (!dialect.bindsParametersInWith()) {
      return "SELECT " + columns + ", -1 AS " + KEYS_FOUND + ", " + keyedDue + " AS " + KEYED_DUE
          + " FROM outbox_entry e WHERE e.id IN " + claimableIdsInline(dialect)
          + " AND e.due_at <= :now ORDER BY e.due_at, e.id LIMIT :limit";
    }
    String keyedLocking = lock ? " FOR UPDATE OF e SKIP LOCKED" : "";
    return "WITH RECURSIVE" + keyScan(dialect) + ","
        + " unkeyed_rows AS (" + unkeyed + unkeyedOrder + locking + "),"
        + " key_head_rows AS (SELECT " + columns + " FROM outbox_entry e WHERE e.id IN (SELECT " + headOfKey(dialect, "m.k")
        + " FROM more_keys m WHERE m.k IS NOT NULL AND (SELECT complete FROM key_scan)) AND e.due_at <= :now"
        + keyedLocking + "),"
        + " walked_rows AS (SELECT " + columns + " FROM outbox_entry e WHERE " + keyedDue(dialect)
        + " AND NOT (SELECT complete FROM key_scan) AND " + firstOfItsKey(dialect, "e")
        + " ORDER BY e." + dialect.keyedDueColumn() + ", e.id LIMIT :limit" + keyedLocking + ")"
        + " SELECT c.*, CASE WHEN :scan = 1 THEN (SELECT keys_found FROM key_scan) ELSE -1 END AS " + KEYS_FOUND
        + ", " + keyedDue + " AS " + KEYED_DUE + " FROM (SELECT * FROM unkeyed_rows UNION ALL SELECT * FROM key_head_rows"
        + " UNION ALL SELECT * FROM walked_rows) c ORDER BY c.due_at, c.id LIMIT :limit";
  }

  private static String keyedDue(SqlDialect dialect) {
    return dialect.keyedDue().replace("?", ":now");
  }

  /**
   * The key scan of the query for all rows ({@code more_keys}, {@code key_scan}). That query finds the
   * claimable rows with an ordering key, the first unfinished entries of their keys, one of two ways,
   * neither reading past the rows without a key:
   *
   * <ul>
   *   <li>{@code key_head_rows}, when the caller asks for the key scan ({@code :scan} = 1): the first
   *       unfinished entry of every key with one, one step of the key index per key (a loose index
   *       scan: the smallest key after the last), however many entries each holds back — complete
   *       while there are at most {@link #KEY_SCAN_LIMIT} keys;
   *   <li>{@code walked_rows}, when the key scan did not run or found more keys than it may visit: the
   *       keyed due rows in due order that are first of their keys, until the batch is full, one
   *       probe each. Cheap where most keyed rows are first of their keys (a key per aggregate), it
   *       reads past every held-back entry where a few keys hold back many.
   * </ul>
   *
   * The claimer picks the way that costs less from what the last claim saw ({@link ClaimQuerySteering});
   * H2 wants every table of a recursive {@code WITH} to name its columns.
   */
  private static String keyScan(SqlDialect dialect) {
    String key = dialect.unfinishedKeyColumn();
    return " more_keys (k, n) AS (SELECT MIN(" + key + "), 1 FROM outbox_entry WHERE " + key + " IS NOT NULL"
        + " AND due_at IS NOT NULL AND :scan = 1"
        + " UNION ALL SELECT (SELECT MIN(" + key + ") FROM outbox_entry WHERE " + key + " > m.k AND due_at IS NOT NULL),"
        + " m.n + 1 FROM more_keys m WHERE m.k IS NOT NULL AND m.n <= " + KEY_SCAN_LIMIT + "),"
        + " key_scan (keys_found, complete) AS (SELECT COUNT(k), :scan = 1 AND COUNT(k) <= " + KEY_SCAN_LIMIT
        + " FROM more_keys)";
  }

  /**
   * The claimable ids for H2 ({@link SqlDialect#bindsParametersInWith}), in derived tables: the
   * unkeyed due rows by their index, and every keyed due row first of its key, without a key scan
   * (H2 holds an embedded or a test outbox, not a backlog of millions).
   */
  private static String claimableIdsInline(SqlDialect dialect) {
    return "(SELECT u.id FROM (SELECT id FROM outbox_entry WHERE " + dialect.unkeyedDue().replace("?", ":now")
        + " ORDER BY " + dialect.unkeyedDueColumn() + ", id LIMIT :limit) u UNION ALL SELECT w.id FROM outbox_entry w WHERE "
        + keyedDue(dialect) + " AND " + firstOfItsKey(dialect, "w") + ")";
  }

  /**
   * An entry may be claimed only while no earlier entry of its ordering key is unfinished: while it
   * is its key's first unfinished entry in append order (creation time, then id). The subquery reads
   * {@code unfinishedKeyColumn} ({@link SqlDialect#unfinishedKeyColumn}): a column whose index holds
   * only unfinished rows, so the probe finds the key's first unfinished entry at once however many
   * finished ones the key has. Written as "is the key's first", one probe per row, rather than "no
   * earlier one exists", which PostgreSQL may answer by hashing every unfinished keyed row.
   */
  private static String firstOfItsKey(SqlDialect dialect, String row) {
    return row + ".id = " + headOfKey(dialect, row + ".ordering_key");
  }

  private static String headOfKey(SqlDialect dialect, String key) {
    return "(" + EntryRows.firstUnfinishedOfKey(dialect, "p.id", key) + ")";
  }

  private static String withinBudget(String query) {
    return "SELECT " + EntryRows.COLUMNS + ", " + KEYS_FOUND + ", " + KEYED_DUE + " FROM (SELECT w.*,"
        + " SUM(OCTET_LENGTH(w.payload)) OVER (ORDER BY w.due_at, w.id) AS payload_taken,"
        + " ROW_NUMBER() OVER (ORDER BY w.due_at, w.id) AS due_position FROM (" + query + ") w) s"
        + " WHERE s.payload_taken <= :budget OR s.due_position = 1 ORDER BY s.due_at, s.id";
  }
}
