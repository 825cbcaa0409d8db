package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.EntryColumn.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * MariaDB's {@link SetRowWriter}: {@code UPDATE outbox_entry e JOIN JSON_TABLE(?, …) v … SET …}, the
 * per-row columns of the whole batch in one JSON parameter, an array of arrays. Connector/J sends a
 * JDBC batch as one statement per row (its bulk protocol reports no per-row counts), and the server
 * then parsed and ran two statements per entry drained, one for the claim and one for the result:
 * that was MariaDB's bound on a drain.
 *
 * <p>MariaDB answers one count for the statement. When it is the batch's size every row was
 * written. When it is less, the rows are read again in the same transaction: a row carries this
 * write's stamp exactly when this statement wrote it, since the stamp is new to this write and the
 * row, once written, stays locked by the transaction. So the writer runs in a transaction
 * ({@link #isOneStatement} is false; under a caller's autocommit it opens its own), which costs the
 * same commit the JDBC batch had.
 *
 * <p>Text columns are read from the JSON in the table's binary collation, so ids, owners and
 * tokens compare exactly, and wider than their table columns: the table's own length check (strict
 * mode) rejects a value that is too long, where {@code JSON_TABLE} would cut it short silently.
 */
final class JsonTableRowWriter extends SetRowWriter {

  /** Wider than every text column a write assigns or compares (at most 2,000 characters). */
  private static final String TEXT_TYPE = "VARCHAR(4000) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin";

  private static final String DATETIME_TYPE = "DATETIME(6)";

  JsonTableRowWriter() {
    super(SqlDialect.MARIADB);
  }

  @Override
  boolean isOneStatement() {
    return false;
  }

  @Override
  String assigned(String column) {
    return "e." + column;
  }

  @Override
  String scalar(Kind kind) {
    return kind == Kind.TIMESTAMP ? "CAST(? AS " + DATETIME_TYPE + ")" : "?";
  }

  @Override
  String instantText(Instant instant) {
    return LocalDateTime.ofInstant(instant, ZoneOffset.UTC).toString();
  }

  @Override
  Fragment rows(List<Column> perRow, int[] indexes) {
    StringJoiner columns = new StringJoiner(", ", "JSON_TABLE(?, '$[*]' COLUMNS (", ")) v");
    for (int i = 0; i < perRow.size(); i++) {
      columns.add(perRow.get(i).name() + " " + sqlType(perRow.get(i).kind()) + " PATH '$[" + i + "]'");
    }
    Kind[] kinds = perRow.stream().map(Column::kind).toArray(Kind[]::new);
    Parameter json = (statement, index, values, connection) -> statement.setString(index,
        json(kinds, indexes, values));
    return new Fragment(columns.toString(), List.of(json));
  }

  private static String sqlType(Kind kind) {
    return switch (kind) {
      case TEXT -> TEXT_TYPE;
      case INT4 -> "INT";
      case INT8 -> "BIGINT";
      case TIMESTAMP -> DATETIME_TYPE;
      case BYTES -> throw new IllegalStateException("bug: a write assigns no bytes");
    };
  }

  /** The batch's per-row values as {@code [[row 1's values], [row 2's], …]}. */
  private String json(Kind[] kinds, int[] indexes, Object[][] values) {
    int rows = values[indexes[0]].length;
    StringBuilder json = new StringBuilder(rows * 64 * indexes.length).append('[');
    for (int r = 0; r < rows; r++) {
      json.append(r == 0 ? "[" : ",[");
      for (int i = 0; i < indexes.length; i++) {
        if (i > 0) {
          json.append(',');
        }
        Object value = values[indexes[i]][r];
        if (value == null) {
          json.append("null");
        } else if (kinds[i] == Kind.INT4 || kinds[i] == Kind.INT8) {
          json.append(value);
        } else if (kinds[i] == Kind.TIMESTAMP) {
          json.append('"').append(instantText((Instant) value)).append('"');
        } else {
          appendString(json, (String) value);
        }
      }
      json.append(']');
    }
    return json.append(']').toString();
  }

  /**
   * A JSON string. Characters beyond ASCII go as they are (the driver sends UTF-8): MariaDB's JSON
   * parser rejects the escaped surrogate pairs a character beyond the basic plane would need.
   */
  private static void appendString(StringBuilder json, String text) {
    json.append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    json.append('"');
  }

  @Override
  Fragment update(Fragment set, Fragment rows, Fragment where) {
    return new Fragment("UPDATE outbox_entry e JOIN ", List.of())
        .then(rows).then(" SET ").then(set).then(" WHERE ").then(where);
  }

  @Override
  int[] run(Connection connection, PreparedStatement update, List<RowWrite> writes) throws SQLException {
    if (!connection.getAutoCommit()) {
      return writeAndCheck(connection, update, writes);
    }
    // a caller's autocommit (an optimistic claim): the check must still see the rows under the write's locks
    connection.setAutoCommit(false);
    try {
      int[] outcomes = writeAndCheck(connection, update, writes);
      connection.commit();
      connection.setAutoCommit(true);
      return outcomes;
    } catch (SQLException | RuntimeException failure) {
      try {
        connection.rollback();
        connection.setAutoCommit(true);
      } catch (SQLException alsoFailed) {
        failure.addSuppressed(alsoFailed);
      }
      throw failure;
    }
  }

  private static int[] writeAndCheck(Connection connection, PreparedStatement update, List<RowWrite> writes)
      throws SQLException {
    int count = update.executeUpdate();
    int[] outcomes = new int[writes.size()];
    if (count == writes.size()) {
      Arrays.fill(outcomes, WRITTEN);
      return outcomes;
    }
    Map<String, String> stamps = storedStamps(connection, writes);
    for (int i = 0; i < outcomes.length; i++) {
      RowWrite write = writes.get(i);
      String ours = write.written().lastWriteStamp().map(Object::toString).orElseThrow(
          () -> new IllegalStateException("bug: a write without a stamp: " + write.written().id()));
      outcomes[i] = ours.equals(stamps.get(write.written().id().value())) ? WRITTEN : NOT_MATCHED;
    }
    return outcomes;
  }

  /** Each written row's stamp as it is now, read in the writing transaction. */
  private static Map<String, String> storedStamps(Connection connection, List<RowWrite> writes) throws SQLException {
    String sql = "SELECT id, write_stamp FROM outbox_entry WHERE id IN (" + "?, ".repeat(writes.size() - 1) + "?)";
    Map<String, String> stamps = new HashMap<>();
    try (PreparedStatement select = connection.prepareStatement(sql)) {
      for (int i = 0; i < writes.size(); i++) {
        select.setString(i + 1, writes.get(i).written().id().value());
      }
      try (ResultSet rows = select.executeQuery()) {
        while (rows.next()) {
          stamps.put(rows.getString(1), rows.getString(2));
        }
      }
    }
    return stamps;
  }
}
