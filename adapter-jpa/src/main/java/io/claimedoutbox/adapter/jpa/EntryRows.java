package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * The store's SQL over {@code outbox_entry}, and the one place that moves entries between JDBC and
 * the domain. Rows read are decoded through {@link OutboxEntryMapper}, so a damaged row is
 * reported the same way however it was read.
 *
 * <p>{@link #WRITE} is the compare-and-set every claim and transition uses: it writes the new
 * state only where the row is still at the revision the caller saw, and raises the revision
 * itself (it bypasses Hibernate's {@code @Version}, so it must).
 */
final class EntryRows {

  /** Every column, in {@link EntryColumn}'s order: what every whole-row read selects. */
  static final String COLUMNS = EntryColumn.NAMES;

  private static final String FIND = "SELECT " + COLUMNS + " FROM outbox_entry WHERE id = ?";

  static final String DELETE = "DELETE FROM outbox_entry WHERE id = ?";

  static final String INSERT = "INSERT INTO outbox_entry (" + COLUMNS + ") VALUES ("
      + "?, ".repeat(EntryColumn.count() - 1) + "?)";

  /** Assigns {@link EntryColumn#ASSIGNED} in their order, then compares the id and the revision. */
  static final String WRITE = "UPDATE outbox_entry SET "
      + EntryColumn.ASSIGNED.stream().map(column -> column.sqlName() + " = ?").collect(Collectors.joining(", "))
      + " WHERE id = ? AND revision = ?";

  /**
   * {@link #WRITE} for a transition under a claim: also requires the claim's status, owner and
   * token, so a row damaged by hand (same revision, other status) is never overwritten and
   * repaired by accident; the locked path then reads it and reports it.
   */
  static final String TRANSITION = WRITE + " AND status = 'CLAIMED' AND claim_owner = ? AND token_nonce = ?";

  private EntryRows() {}

  /** Locks the given rows that are still due, skipping rows another claim holds. */
  static String lockDueQuery(int ids) {
    return "SELECT " + COLUMNS + " FROM outbox_entry WHERE id IN (" + "?, ".repeat(ids - 1) + "?) AND due_at <= ?"
        + " ORDER BY due_at, id FOR UPDATE SKIP LOCKED";
  }

  /**
   * Reads one entry by id on {@code connection}.
   *
   * @return the entry, empty when there is no such row
   */
  static Optional<OutboxEntry> find(Connection connection, EntryId id, SqlDialect dialect) throws SQLException {
    try (PreparedStatement select = connection.prepareStatement(FIND)) {
      select.setString(1, id.value());
      try (ResultSet row = select.executeQuery()) {
        return row.next() ? Optional.of(read(row, dialect)) : Optional.empty();
      }
    }
  }

  /** The most keys one statement of {@link #firstUnfinishedOfKeys} asks for, where keys are not an array. */
  private static final int KEYS_PER_STATEMENT = 128;

  /**
   * PostgreSQL's form of {@link #firstUnfinishedOfKeys}: the keys as one array, one probe per key
   * joined laterally, so one small statement (planned at once) serves any number of keys.
   */
  private static final String FIRST_UNFINISHED_OF_KEY_ARRAY = "SELECT h.* FROM unnest(?::text[]) AS k(key)"
      + " CROSS JOIN LATERAL (" + firstUnfinishedOfKey(SqlDialect.POSTGRESQL, COLUMNS, "k.key") + ") h";

  /**
   * The first unfinished entry of each key, in append order, one index probe per key: on PostgreSQL
   * in one statement, elsewhere a union of probes per {@value #KEYS_PER_STATEMENT} keys, as many as
   * {@link SqlDialect#probesFor} says (the last key repeated). One probe per row of a {@code JSON_TABLE}
   * of the keys was measured on MariaDB and not kept: it sometimes read thousands of index entries a
   * key, where a probe with the key as a constant reads one.
   *
   * @param keys distinct keys
   * @return at most one entry per key, in the order of {@code keys}
   */
  static List<OutboxEntry> firstUnfinishedOfKeys(Connection connection, List<String> keys, SqlDialect dialect)
      throws SQLException {
    Map<String, OutboxEntry> heads = new HashMap<>();
    if (dialect == SqlDialect.POSTGRESQL) {
      try (PreparedStatement select = connection.prepareStatement(FIRST_UNFINISHED_OF_KEY_ARRAY)) {
        select.setArray(1, connection.createArrayOf("text", keys.toArray(String[]::new)));
        readHeads(select, dialect, heads);
      }
    } else {
      for (int from = 0; from < keys.size(); from += KEYS_PER_STATEMENT) {
        List<String> chunk = keys.subList(from, Math.min(keys.size(), from + KEYS_PER_STATEMENT));
        int asked = dialect.probesFor(chunk.size());
        try (PreparedStatement select = connection.prepareStatement(firstUnfinishedOfKeysUnion(dialect, asked))) {
          for (int i = 0; i < asked; i++) {
            select.setString(i + 1, chunk.get(Math.min(i, chunk.size() - 1)));
          }
          readHeads(select, dialect, heads);
        }
      }
    }
    List<OutboxEntry> inKeyOrder = new ArrayList<>(heads.size());
    for (String key : keys) {
      OutboxEntry head = heads.get(key);
      if (head != null) {
        inKeyOrder.add(head);
      }
    }
    return inKeyOrder;
  }

  private static void readHeads(PreparedStatement select, SqlDialect dialect, Map<String, OutboxEntry> heads)
      throws SQLException {
    try (ResultSet rows = select.executeQuery()) {
      while (rows.next()) {
        OutboxEntry head = read(rows, dialect);
        heads.put(head.message().orderingKey().orElseThrow(), head);
      }
    }
  }

  private static String firstUnfinishedOfKeysUnion(SqlDialect dialect, int keys) {
    StringJoiner union = new StringJoiner(" UNION ALL ");
    for (int i = 0; i < keys; i++) {
      union.add("(" + firstUnfinishedOfKey(dialect, COLUMNS, "?") + ")");
    }
    return union.toString();
  }

  /**
   * The query for the first unfinished entry of the key {@code key} (a parameter or a column of an
   * enclosing query), in append order, as one probe of the index on
   * {@link SqlDialect#unfinishedKeyColumn}; its table is {@code p}.
   */
  static String firstUnfinishedOfKey(SqlDialect dialect, String columns, String key) {
    return "SELECT " + columns + " FROM outbox_entry p WHERE " + dialect.unfinishedOfKey("p", key)
        + " ORDER BY p.created_at, p.id LIMIT 1";
  }

  /** Decodes a row read with {@link #COLUMNS} in their order, from column 1. */
  static OutboxEntry read(ResultSet row, SqlDialect dialect) throws SQLException {
    return OutboxEntryMapper.toEntry(EntryColumn.readRow(row, dialect));
  }

  /** Binds {@link #INSERT} for a freshly appended entry. */
  static void bindInsert(PreparedStatement insert, OutboxEntry entry, SqlDialect dialect) throws SQLException {
    int index = 1;
    for (EntryColumn column : EntryColumn.ALL) {
      column.bind(insert, index++, entry, dialect);
    }
  }

  /**
   * Binds {@link #TRANSITION}: store {@code written} where the row is still at
   * {@code expectedRevision} and held under {@code claim}.
   */
  static void bindTransition(PreparedStatement write, OutboxEntry written, long expectedRevision, Claim claim,
      SqlDialect dialect) throws SQLException {
    int next = bindWrite(write, written, expectedRevision, dialect);
    write.setString(next, claim.owner().value());
    write.setString(next + 1, claim.token().nonce().toString());
  }

  /**
   * Binds {@link #WRITE}: store {@code written} where the row is still at {@code expectedRevision}.
   *
   * @return the index of the next parameter
   */
  static int bindWrite(PreparedStatement write, OutboxEntry written, long expectedRevision, SqlDialect dialect)
      throws SQLException {
    int index = 1;
    for (EntryColumn column : EntryColumn.ASSIGNED) {
      column.bind(write, index++, written, dialect);
    }
    write.setString(index++, written.id().value());
    write.setLong(index++, expectedRevision);
    return index;
  }
}
