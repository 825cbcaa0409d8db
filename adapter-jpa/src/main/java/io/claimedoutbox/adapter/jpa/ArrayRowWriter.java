package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.EntryColumn.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * PostgreSQL's {@link SetRowWriter}: {@code UPDATE … FROM unnest(…) … RETURNING id}, each per-row
 * column as one array parameter, the ids returned telling which rows were written.
 *
 * <p>The statement is preceded, in the same round trip, by the settings that steer a claim's due
 * query ({@link SqlDialect#STEER_TO_INDEXES}). The join of the arrays to the table must go by the
 * primary key; but an outbox analysed while nearly empty, then met by a burst, gives PostgreSQL an
 * estimate of a row or two, and it then compares every row of the table with every element of the
 * batch (a nested loop over a sequential scan): a delivery of 250 entries among 20,000 took 1.4 s,
 * against about 3 ms by the key. A fresh connection pool paid that on its first executions of each
 * statement shape, which are planned with the arrays' contents (a warmed statement's generic plan
 * happened to go by the key), until autovacuum analysed the table. Inside a claim's transaction the
 * settings are already in force and are sent again (a few microseconds): one statement text for
 * every caller rather than a writer that must be told how its transaction began.
 */
final class ArrayRowWriter extends SetRowWriter {

  ArrayRowWriter() {
    super(SqlDialect.POSTGRESQL);
  }

  @Override
  boolean isOneStatement() {
    return true;
  }

  @Override
  String assigned(String column) {
    return column;
  }

  @Override
  String scalar(Kind kind) {
    return "?::" + kind.postgresType();
  }

  @Override
  String instantText(Instant instant) {
    return instant.toString();
  }

  @Override
  Fragment rows(List<Column> perRow, int[] indexes) {
    StringJoiner arrays = new StringJoiner(", ", "unnest(", ")");
    StringJoiner names = new StringJoiner(", ", " AS v(", ")");
    List<Parameter> parameters = new ArrayList<>();
    for (int i = 0; i < perRow.size(); i++) {
      Kind kind = perRow.get(i).kind();
      int c = indexes[i];
      // instants travel as ISO text, cast by the server
      arrays.add(kind == Kind.TIMESTAMP ? "?::text[]::timestamptz[]" : "?::" + kind.postgresType() + "[]");
      names.add(perRow.get(i).name());
      parameters.add((statement, index, values, connection) -> statement.setArray(index,
          connection.createArrayOf(kind == Kind.TIMESTAMP ? "text" : kind.postgresType(), elements(kind, values[c]))));
    }
    return new Fragment(arrays.toString() + names, parameters);
  }

  /**
   * The column's values as an array of their own type: pgjdbc encodes a {@code String[]}, {@code Long[]}
   * or {@code Integer[]} with its typed encoders, but an {@code Object[]} through its generic text form,
   * escaping every character of every element (9–11% of a keyed drain's JVM samples went there; see
   * docs/benchmarks.md).
   */
  private Object[] elements(Kind kind, Object[] values) {
    return switch (kind) {
      case TIMESTAMP -> {
        String[] texts = new String[values.length];
        for (int r = 0; r < values.length; r++) {
          texts[r] = values[r] == null ? null : instantText((Instant) values[r]);
        }
        yield texts;
      }
      case TEXT -> Arrays.copyOf(values, values.length, String[].class);
      case INT4 -> Arrays.copyOf(values, values.length, Integer[].class);
      case INT8 -> Arrays.copyOf(values, values.length, Long[].class);
      case BYTES -> Arrays.copyOf(values, values.length, byte[][].class);
    };
  }

  @Override
  Fragment update(Fragment set, Fragment rows, Fragment where) {
    return new Fragment(SqlDialect.STEER_TO_INDEXES + "; UPDATE outbox_entry e SET ", List.of())
        .then(set).then(" FROM ").then(rows).then(" WHERE ").then(where).then(" RETURNING e.id");
  }

  @Override
  int[] run(Connection connection, PreparedStatement update, List<RowWrite> writes) throws SQLException {
    update.execute();
    if (!update.getMoreResults()) {
      throw new SQLException("the batch update returned no ids after its settings");
    }
    Set<String> written = new HashSet<>();
    try (ResultSet ids = update.getResultSet()) {
      while (ids.next()) {
        written.add(ids.getString(1));
      }
    }
    int[] outcomes = new int[writes.size()];
    for (int i = 0; i < outcomes.length; i++) {
      outcomes[i] = written.contains(writes.get(i).written().id().value()) ? WRITTEN : NOT_MATCHED;
    }
    return outcomes;
  }
}
