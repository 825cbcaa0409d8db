package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.HeaderText;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The columns of {@code outbox_entry}, each once: its name, its SQL kind, whether a write (a claim,
 * a transition, a requeue) assigns it or only the append does, what it holds of an entry, and where a
 * row read puts it. Every statement's column list, every bind and every read of a whole row is
 * rendered from this table in its order, so a new stored field is one constant here (and a
 * migration), not a position to change in eight places.
 */
enum EntryColumn {
  ID("id", Kind.TEXT, false, entry -> entry.id().value(), (row, record, at, dialect) -> record.id = row.getString(at)),
  TOPIC("topic", Kind.TEXT, false, entry -> entry.message().topic(),
      (row, record, at, dialect) -> record.topic = row.getString(at)),
  ORDERING_KEY("ordering_key", Kind.TEXT, false, entry -> entry.message().orderingKey().orElse(null),
      (row, record, at, dialect) -> record.orderingKey = row.getString(at)),
  PAYLOAD("payload", Kind.BYTES, false, entry -> entry.message().payload(),
      (row, record, at, dialect) -> record.payload = row.getBytes(at)),
  HEADERS("headers", Kind.TEXT, false, entry -> HeaderText.encode(entry.message().headers()),
      (row, record, at, dialect) -> record.headers = row.getString(at)),
  STATUS("status", Kind.TEXT, true, entry -> entry.status().name(),
      (row, record, at, dialect) -> record.status = row.getString(at)),
  ATTEMPTS("attempts", Kind.INT4, true, OutboxEntry::attempts,
      (row, record, at, dialect) -> record.attempts = row.getInt(at)),
  CREATED_AT("created_at", Kind.TIMESTAMP, false, OutboxEntry::createdAt,
      (row, record, at, dialect) -> record.createdAt = dialect.getStoredInstant(row, at)),
  UPDATED_AT("updated_at", Kind.TIMESTAMP, true, OutboxEntry::updatedAt,
      (row, record, at, dialect) -> record.updatedAt = dialect.getStoredInstant(row, at)),
  AVAILABLE_AT("available_at", Kind.TIMESTAMP, true, OutboxEntry::availableAt,
      (row, record, at, dialect) -> record.availableAt = dialect.getStoredInstant(row, at)),
  DUE_AT("due_at", Kind.TIMESTAMP, true, entry -> entry.dueAt().orElse(null),
      (row, record, at, dialect) -> record.dueAt = dialect.getStoredInstant(row, at)),
  CLAIM_GENERATION("claim_generation", Kind.INT8, true, OutboxEntry::claimGeneration,
      (row, record, at, dialect) -> record.claimGeneration = row.getLong(at)),
  CLAIM_OWNER("claim_owner", Kind.TEXT, true, entry -> claim(entry, held -> held.owner().value()),
      (row, record, at, dialect) -> record.owner = row.getString(at)),
  TOKEN_NONCE("token_nonce", Kind.TEXT, true, entry -> claim(entry, held -> held.token().nonce().toString()),
      (row, record, at, dialect) -> record.tokenNonce = row.getString(at)),
  CLAIMED_AT("claimed_at", Kind.TIMESTAMP, true, entry -> claim(entry, CurrentClaim::claimedAt),
      (row, record, at, dialect) -> record.claimedAt = dialect.getStoredInstant(row, at)),
  LEASE_UNTIL("lease_until", Kind.TIMESTAMP, true, entry -> claim(entry, CurrentClaim::leaseUntil),
      (row, record, at, dialect) -> record.leaseUntil = dialect.getStoredInstant(row, at)),
  LAST_ERROR("last_error", Kind.TEXT, true, entry -> entry.lastError().orElse(null),
      (row, record, at, dialect) -> record.lastError = row.getString(at)),
  PROGRESS("progress", Kind.TEXT, true, entry -> entry.progress().orElse(null),
      (row, record, at, dialect) -> record.progress = row.getString(at)),
  DELIVERY_RECEIPT("delivery_receipt", Kind.TEXT, true, entry -> entry.deliveryReceipt().orElse(null),
      (row, record, at, dialect) -> record.deliveryReceipt = row.getString(at)),
  WRITE_STAMP("write_stamp", Kind.TEXT, true, entry -> entry.lastWriteStamp().map(WriteStamp::toString).orElse(null),
      (row, record, at, dialect) -> record.writeStamp = row.getString(at)),
  REVISION("revision", Kind.INT8, true, OutboxEntry::revision,
      (row, record, at, dialect) -> record.revision = row.getLong(at));

  /** How a column's values travel over JDBC, and the PostgreSQL type a statement over arrays casts them to. */
  enum Kind {
    TEXT("text"), BYTES("bytea"), INT4("int4"), INT8("int8"), TIMESTAMP("timestamptz");

    private final String postgresType;

    Kind(String postgresType) {
      this.postgresType = postgresType;
    }

    String postgresType() {
      return postgresType;
    }
  }

  /** Puts the column of a row read into the record that {@link OutboxEntryMapper} decodes. */
  @FunctionalInterface
  interface Reader {
    void read(ResultSet row, OutboxEntryRecord record, int at, SqlDialect dialect) throws SQLException;
  }

  /** Every column, in table order. */
  static final List<EntryColumn> ALL = List.of(values());

  /** The columns a write assigns, in table order: everything but what only the append sets. */
  static final List<EntryColumn> ASSIGNED = ALL.stream().filter(column -> column.assigned).toList();

  /** Every column, comma separated, in table order: the list every whole-row read and the insert use. */
  static final String NAMES = ALL.stream().map(EntryColumn::sqlName).collect(Collectors.joining(", "));

  private final String sqlName;
  private final Kind kind;
  private final boolean assigned;
  private final Function<OutboxEntry, Object> value;
  private final Reader reader;

  EntryColumn(String sqlName, Kind kind, boolean assigned, Function<OutboxEntry, Object> value, Reader reader) {
    this.sqlName = sqlName;
    this.kind = kind;
    this.assigned = assigned;
    this.value = value;
    this.reader = reader;
  }

  /** @return the column's name in SQL */
  String sqlName() {
    return sqlName;
  }

  /** @return how its values travel */
  Kind kind() {
    return kind;
  }

  /** @return what the column holds of {@code entry}: a String, byte[], Integer, Long or Instant, or null */
  Object valueOf(OutboxEntry entry) {
    return value.apply(entry);
  }

  /** @return how many columns a whole row has */
  static int count() {
    return ALL.size();
  }

  /** Binds this column's value of {@code entry} as parameter {@code index}. */
  void bind(PreparedStatement statement, int index, OutboxEntry entry, SqlDialect dialect) throws SQLException {
    Object bound = valueOf(entry);
    switch (kind) {
      case TEXT -> statement.setString(index, (String) bound);
      case BYTES -> statement.setBytes(index, (byte[]) bound);
      case INT4 -> statement.setInt(index, (Integer) bound);
      case INT8 -> statement.setLong(index, (Long) bound);
      case TIMESTAMP -> dialect.setInstant(statement, index, (Instant) bound);
      default -> throw new IllegalStateException("bug: no bind for " + kind);
    }
  }

  /** Reads a whole row, selected with {@link #NAMES} in their order from column 1. */
  static OutboxEntryRecord readRow(ResultSet row, SqlDialect dialect) throws SQLException {
    OutboxEntryRecord record = new OutboxEntryRecord();
    // by position, in the table's order: spares the driver a lookup by name per column of every row
    for (int i = 0; i < ALL.size(); i++) {
      ALL.get(i).reader.read(row, record, i + 1, dialect);
    }
    return record;
  }

  private static <T> T claim(OutboxEntry entry, Function<CurrentClaim, T> part) {
    return entry.currentClaim().map(part).orElse(null);
  }
}
