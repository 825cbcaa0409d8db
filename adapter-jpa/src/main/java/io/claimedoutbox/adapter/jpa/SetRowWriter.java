package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.adapter.jpa.EntryColumn.Kind;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * A {@link RowWriter} that sends a whole batch as one set-based {@code UPDATE}: the table joined to
 * the batch's rows, which travel as parameters ({@link ArrayRowWriter}: PostgreSQL's arrays;
 * {@link JsonTableRowWriter}: MariaDB's {@code JSON_TABLE}). The server parses and plans one
 * statement per batch instead of one per row; on both servers that, not the round trips, was what a
 * drain's writes cost.
 *
 * <p>A column whose value is the same in every row of the batch is bound once, as a scalar, instead
 * of once per row. A claim's owner, time, lease and write stamp are the same for the whole batch,
 * and so are a delivery's cleared claim fields; binding them once spares the JVM formatting and the
 * server decoding hundreds of equal values.
 *
 * <p>A column that no row of the batch changes is not assigned at all: a row is written only while
 * it is at its basis's revision, and then it holds the basis, so the column keeps the value it
 * has. Neither a claim nor a delivery changes an entry's {@code available_at}, which differs from
 * entry to entry; sending it per row cost the JVM a formatted instant per row and the server its
 * parsing, for nothing. A claim of first attempts sends two per-row columns (ids and tokens) where
 * it would send nineteen, a delivery three (ids, the tokens held, write stamps).
 *
 * <p>The statement text depends on which columns are uniform and which unchanged; the few shapes
 * that occur are kept, so each is prepared like any other statement the driver caches.
 */
abstract class SetRowWriter extends RowWriter {

  /**
   * A column of the batch: its name in the statement, how it is sent, its value in each write and,
   * for a column the statement may assign, its value in the write's basis (else null).
   */
  record Column(String name, Kind kind, Function<RowWrite, Object> value, Function<RowWrite, Object> stored) {

    Column(String name, Kind kind, Function<RowWrite, Object> value) {
      this(name, kind, value, null);
    }
  }

  /** The columns the statement assigns, in the order of its SET clause: {@link EntryColumn#ASSIGNED}. */
  private static final List<Column> ASSIGNED = EntryColumn.ASSIGNED.stream()
      .map(column -> new Column(column.sqlName(), column.kind(), row -> column.valueOf(row.written()),
          row -> column.valueOf(row.basis())))
      .toList();

  private static final Column ID = new Column("id", Kind.TEXT, row -> row.written().id().value());
  private static final Column EXPECTED_REVISION = new Column("expected_revision", Kind.INT8, RowWrite::expectedRevision);
  private static final Column HELD_OWNER = new Column("held_owner", Kind.TEXT, row -> row.heldBy().owner().value());
  private static final Column HELD_NONCE = new Column("held_nonce", Kind.TEXT,
      row -> row.heldBy().token().nonce().toString());

  private static final List<Column> WRITE_COLUMNS = concat(ASSIGNED, List.of(ID, EXPECTED_REVISION));
  private static final List<Column> TRANSITION_COLUMNS = concat(WRITE_COLUMNS, List.of(HELD_OWNER, HELD_NONCE));

  static {
    // a batch's shape is two bit masks over these columns, each in an int and one shifted by one
    if (TRANSITION_COLUMNS.size() >= Integer.SIZE - 1) {
      throw new IllegalStateException("too many columns for a shape's masks: " + TRANSITION_COLUMNS.size());
    }
  }

  /** Binds one parameter of a statement from the batch's values ({@code values[column][row]}). */
  @FunctionalInterface
  interface Parameter {
    void bind(PreparedStatement statement, int index, Object[][] values, Connection connection) throws SQLException;
  }

  /** A piece of statement text and the parameters it holds, in the order they appear in it. */
  record Fragment(String text, List<Parameter> parameters) {

    Fragment then(String more) {
      return new Fragment(text + more, parameters);
    }

    Fragment then(Fragment more) {
      List<Parameter> all = new ArrayList<>(parameters);
      all.addAll(more.parameters());
      return new Fragment(text + more.text(), all);
    }
  }

  private final ConcurrentMap<Long, Fragment> shapes = new ConcurrentHashMap<>();
  private final RowWriter single;

  SetRowWriter(SqlDialect dialect) {
    this.single = new RowWriter.BatchWriter(dialect);
  }

  /**
   * The rows of the batch as a table {@code v} whose columns are named after {@code perRow}.
   *
   * @param perRow the columns that differ between rows
   * @param indexes each one's index in the values bound
   */
  abstract Fragment rows(List<Column> perRow, int[] indexes);

  /** How the SET clause names a column of the table {@code e}. */
  abstract String assigned(String column);

  /** A uniform value of {@code kind} in the statement, bound once. */
  abstract String scalar(Kind kind);

  /** The whole statement: the table {@code e} updated with {@code set}, joined to {@code rows}, where {@code where}. */
  abstract Fragment update(Fragment set, Fragment rows, Fragment where);

  /** How a uniform instant is bound: the text the server reads as that instant. */
  abstract String instantText(Instant instant);

  /**
   * Runs the bound statement and says which rows it wrote.
   *
   * @return per element {@link #WRITTEN} or {@link #NOT_MATCHED}
   */
  abstract int[] run(Connection connection, PreparedStatement update, List<RowWrite> writes) throws SQLException;

  @Override
  final int[] write(Connection connection, List<RowWrite> writes) throws SQLException {
    if (writes.size() == 1) {
      // one row: the plain conditional UPDATE, which plans faster than one over a set
      return single.write(connection, writes);
    }
    boolean transitions = writes.get(0).heldBy() != null;
    List<Column> columns = transitions ? TRANSITION_COLUMNS : WRITE_COLUMNS;
    Object[][] values = new Object[columns.size()][];
    int uniform = 0;
    int unchanged = 0;
    for (int c = 0; c < columns.size(); c++) {
      Column column = columns.get(c);
      values[c] = new Object[writes.size()];
      boolean same = column != ID;
      boolean kept = column.stored() != null;
      for (int r = 0; r < writes.size(); r++) {
        values[c][r] = column.value().apply(writes.get(r));
        same = same && Objects.equals(values[c][r], values[c][0]);
        kept = kept && Objects.equals(values[c][r], column.stored().apply(writes.get(r)));
      }
      if (kept) {
        unchanged |= 1 << c;
      } else if (same) {
        uniform |= 1 << c;
      }
    }
    long key = (long) unchanged << Integer.SIZE | (long) uniform << 1 | (transitions ? 1 : 0);
    int uniformColumns = uniform;
    int unchangedColumns = unchanged;
    Fragment shape = shapes.computeIfAbsent(key,
        ignored -> shape(columns, uniformColumns, unchangedColumns, transitions));
    try (PreparedStatement update = connection.prepareStatement(shape.text())) {
      for (int p = 0; p < shape.parameters().size(); p++) {
        shape.parameters().get(p).bind(update, p + 1, values, connection);
      }
      return run(connection, update, writes);
    }
  }

  /**
   * The statement for a batch whose columns marked in {@code uniform} are bound once and whose
   * columns marked in {@code unchanged} are left as stored.
   */
  private Fragment shape(List<Column> columns, int uniform, int unchanged, boolean transitions) {
    Fragment set = new Fragment("", List.of());
    for (int c = 0; c < ASSIGNED.size(); c++) {
      if ((unchanged & 1 << c) == 0) {
        set = set.then((set.text().isEmpty() ? "" : ", ") + assigned(ASSIGNED.get(c).name()) + " = ")
            .then(reference(columns, c, uniform));
      }
    }
    List<Column> perRow = new ArrayList<>();
    List<Integer> indexes = new ArrayList<>();
    for (int c = 0; c < columns.size(); c++) {
      if (((uniform | unchanged) & 1 << c) == 0) {
        perRow.add(columns.get(c));
        indexes.add(c);
      }
    }
    Fragment where = new Fragment("e.id = v.id AND e.revision = ", List.of())
        .then(reference(columns, columns.indexOf(EXPECTED_REVISION), uniform));
    if (transitions) {
      where = where.then(" AND e.status = 'CLAIMED' AND e.claim_owner = ")
          .then(reference(columns, columns.indexOf(HELD_OWNER), uniform))
          .then(" AND e.token_nonce = ")
          .then(reference(columns, columns.indexOf(HELD_NONCE), uniform));
    }
    return update(set, rows(perRow, indexes.stream().mapToInt(Integer::intValue).toArray()), where);
  }

  /** How the statement refers to column {@code c}: {@code v.name} when it travels per row, else a scalar. */
  private Fragment reference(List<Column> columns, int c, int uniform) {
    Column column = columns.get(c);
    if ((uniform & 1 << c) == 0) {
      return new Fragment("v." + column.name(), List.of());
    }
    Kind kind = column.kind();
    Parameter scalar = (statement, index, values, connection) -> bindScalar(statement, index, kind, values[c][0]);
    return new Fragment(scalar(kind), List.of(scalar));
  }

  private void bindScalar(PreparedStatement update, int index, Kind kind, Object value) throws SQLException {
    if (value == null) {
      update.setNull(index, Types.VARCHAR);
    } else if (kind == Kind.INT4) {
      update.setInt(index, (Integer) value);
    } else if (kind == Kind.INT8) {
      update.setLong(index, (Long) value);
    } else if (kind == Kind.TIMESTAMP) {
      update.setString(index, instantText((Instant) value));
    } else {
      update.setString(index, (String) value);
    }
  }

  private static List<Column> concat(List<Column> first, List<Column> second) {
    List<Column> all = new ArrayList<>(first);
    all.addAll(second);
    return List.copyOf(all);
  }
}
