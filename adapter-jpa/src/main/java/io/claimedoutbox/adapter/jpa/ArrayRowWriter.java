package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.EntryColumn.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * PostgreSQL's {@link RowWriter}: one set-based statement for the whole batch ({@code UPDATE … FROM
 * unnest(…) … RETURNING id}), one statement to plan and run instead of one per row.
 *
 * <p>A column whose value is the same in every row of the batch is bound once, as a scalar, instead
 * of as an array of copies. A claim's owner, time, lease and write stamp are the same for the whole
 * batch, and so are a delivery's cleared claim fields; binding them once spares the JVM formatting
 * and the server parsing hundreds of equal array elements (a claim of first attempts sends three arrays
 * instead of nineteen). The statement text depends on which columns are uniform; the few shapes that occur
 * are kept, so each is prepared and planned like any other statement the driver caches.
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
final class ArrayRowWriter extends RowWriter {

  /** The array a column's values travel in (instants as ISO text, cast by the server). */
  private static String arrayParameter(Kind kind) {
    return kind == Kind.TIMESTAMP ? "?::text[]::timestamptz[]" : "?::" + kind.postgresType() + "[]";
  }

  private static String scalarParameter(Kind kind) {
    return "?::" + kind.postgresType();
  }

  /** The element an array carries, and the value a scalar is bound as. */
  private static Object bound(Kind kind, Object value) {
    return kind == Kind.TIMESTAMP && value != null ? value.toString() : value;
  }

  /** The element type {@link Connection#createArrayOf} is given. */
  private static String arrayElementType(Kind kind) {
    return kind == Kind.TIMESTAMP ? "text" : kind.postgresType();
  }

  /** A column of the batch: its name in the statement, how it is sent, its value in each write. */
  private record Column(String name, Kind kind, Function<RowWrite, Object> value) {}

  /** The columns the statement assigns, in the order of its SET clause: {@link EntryColumn#ASSIGNED}. */
  private static final List<Column> ASSIGNED = EntryColumn.ASSIGNED.stream()
      .map(column -> new Column(column.sqlName(), column.kind(),
          row -> column.valueOf(row.written())))
      .toList();

  private static final Column ID = new Column("id", Kind.TEXT, row -> row.written().id().value());
  private static final Column EXPECTED_REVISION = new Column("expected_revision", Kind.INT8, RowWrite::expectedRevision);
  private static final Column HELD_OWNER = new Column("held_owner", Kind.TEXT, row -> row.heldBy().owner().value());
  private static final Column HELD_NONCE = new Column("held_nonce", Kind.TEXT,
      row -> row.heldBy().token().nonce().toString());

  private static final List<Column> WRITE_COLUMNS = concat(ASSIGNED, List.of(ID, EXPECTED_REVISION));
  private static final List<Column> TRANSITION_COLUMNS = concat(WRITE_COLUMNS, List.of(HELD_OWNER, HELD_NONCE));

  /** The statement of one shape, and the order its parameters are bound in (column indexes, scalar or array). */
  private record Shape(String sql, int[] parameterColumns, boolean[] parameterIsArray) {}

  private final ConcurrentMap<Long, Shape> shapes = new ConcurrentHashMap<>();
  private final RowWriter single = new RowWriter.BatchWriter(SqlDialect.POSTGRESQL);

  @Override
  boolean isOneStatement() {
    return true;
  }

  @Override
  int[] write(Connection connection, List<RowWrite> writes) throws SQLException {
    if (writes.size() == 1) {
      // one row: the plain conditional UPDATE, which plans faster than one over arrays
      return single.write(connection, writes);
    }
    boolean transitions = writes.get(0).heldBy() != null;
    List<Column> columns = transitions ? TRANSITION_COLUMNS : WRITE_COLUMNS;
    Object[][] values = new Object[columns.size()][];
    long uniform = 0;
    for (int c = 0; c < columns.size(); c++) {
      Column column = columns.get(c);
      values[c] = new Object[writes.size()];
      boolean same = column != ID;
      for (int r = 0; r < writes.size(); r++) {
        values[c][r] = column.value().apply(writes.get(r));
        same = same && Objects.equals(values[c][r], values[c][0]);
      }
      if (same) {
        uniform |= 1L << c;
      }
    }
    long key = uniform << 1 | (transitions ? 1 : 0);
    Shape shape = shapes.computeIfAbsent(key, ignored -> shape(columns, key >>> 1, transitions));
    try (PreparedStatement update = connection.prepareStatement(shape.sql())) {
      for (int p = 0; p < shape.parameterColumns().length; p++) {
        int c = shape.parameterColumns()[p];
        Kind kind = columns.get(c).kind();
        if (shape.parameterIsArray()[p]) {
          Object[] elements = values[c];
          for (int r = 0; r < elements.length; r++) {
            elements[r] = bound(kind, elements[r]);
          }
          update.setArray(p + 1, connection.createArrayOf(arrayElementType(kind), elements));
        } else {
          bindScalar(update, p + 1, kind, bound(kind, values[c][0]));
        }
      }
      update.execute();
      if (!update.getMoreResults()) {
        throw new SQLException("the batch update returned no ids after its settings: " + shape.sql());
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

  private static void bindScalar(PreparedStatement update, int index, Kind kind, Object value) throws SQLException {
    if (value == null) {
      update.setNull(index, Types.VARCHAR);
    } else if (kind == Kind.INT4) {
      update.setInt(index, (Integer) value);
    } else if (kind == Kind.INT8) {
      update.setLong(index, (Long) value);
    } else {
      update.setString(index, (String) value);
    }
  }

  /** The statement for a batch whose columns marked in {@code uniform} are bound once. */
  private static Shape shape(List<Column> columns, long uniform, boolean transitions) {
    List<Integer> parameterColumns = new ArrayList<>();
    List<Boolean> parameterIsArray = new ArrayList<>();
    StringBuilder set = new StringBuilder("UPDATE outbox_entry e SET ");
    for (int c = 0; c < ASSIGNED.size(); c++) {
      set.append(c == 0 ? "" : ", ").append(ASSIGNED.get(c).name()).append(" = ")
          .append(reference(columns, c, uniform, parameterColumns, parameterIsArray));
    }
    StringBuilder arrays = new StringBuilder();
    StringBuilder names = new StringBuilder();
    for (int c = 0; c < columns.size(); c++) {
      if ((uniform & 1L << c) == 0) {
        arrays.append(arrays.length() == 0 ? "" : ", ").append(arrayParameter(columns.get(c).kind()));
        names.append(names.length() == 0 ? "" : ", ").append(columns.get(c).name());
        parameterColumns.add(c);
        parameterIsArray.add(true);
      }
    }
    StringBuilder where = new StringBuilder(" WHERE e.id = v.id AND e.revision = ")
        .append(reference(columns, columns.indexOf(EXPECTED_REVISION), uniform, parameterColumns, parameterIsArray));
    if (transitions) {
      where.append(" AND e.status = 'CLAIMED' AND e.claim_owner = ")
          .append(reference(columns, columns.indexOf(HELD_OWNER), uniform, parameterColumns, parameterIsArray))
          .append(" AND e.token_nonce = ")
          .append(reference(columns, columns.indexOf(HELD_NONCE), uniform, parameterColumns, parameterIsArray));
    }
    String sql = SqlDialect.STEER_TO_INDEXES + "; " + set + " FROM unnest(" + arrays + ") AS v(" + names + ")" + where
        + " RETURNING e.id";
    return new Shape(sql, parameterColumns.stream().mapToInt(Integer::intValue).toArray(), toArray(parameterIsArray));
  }

  /**
   * How the statement refers to column {@code c}: {@code v.name} when it travels in the arrays, or a
   * scalar parameter, noted as the next one to bind (the text is built in its own order, so the
   * parameters are noted in theirs).
   */
  private static String reference(List<Column> columns, int c, long uniform, List<Integer> parameterColumns,
      List<Boolean> parameterIsArray) {
    Column column = columns.get(c);
    if ((uniform & 1L << c) == 0) {
      return "v." + column.name();
    }
    parameterColumns.add(c);
    parameterIsArray.add(false);
    return scalarParameter(column.kind());
  }

  private static boolean[] toArray(List<Boolean> flags) {
    boolean[] array = new boolean[flags.size()];
    for (int i = 0; i < array.length; i++) {
      array[i] = flags.get(i);
    }
    return array;
  }

  private static List<Column> concat(List<Column> first, List<Column> second) {
    List<Column> all = new ArrayList<>(first);
    all.addAll(second);
    return List.copyOf(all);
  }
}
