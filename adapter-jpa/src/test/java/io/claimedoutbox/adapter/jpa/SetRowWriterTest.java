package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("JPA adapter: a set-based batch write (PostgreSQL's arrays, MariaDB's JSON_TABLE) writes exactly the rows still as the caller saw them")
class SetRowWriterTest {

  /** Texts a JSON or array encoding could get wrong, each stored as a note of its own row. */
  private static final List<String> AWKWARD_TEXTS = List.of("quote \" and backslash \\", "line\nfeed\ttab \u0001",
      "é ü ß — 中文", "beyond the basic plane: 😀", "null", "", "[1,\"x\"]", "'; DROP TABLE outbox_entry; --");

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  @DisplayName("rows at another revision, missing, or whose id differs only in case are not written; the rest are, exactly")
  void writesExactlyTheRowsStillAtTheirRevision(TestDatabase database) throws SQLException {
    JpaTestKit kit = cleanKit(database);
    List<Claim> claims = claims(kit, 8);
    List<RowWriter.RowWrite> writes = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      Claim claim = claims.get(i);
      long expected = i == 1 || i == 4 ? claim.snapshot().revision() + 7 : claim.snapshot().revision();
      EntryId id = switch (i) {
        case 2 -> EntryId.of(claim.snapshot().id().value().toUpperCase(Locale.ROOT));
        case 6 -> EntryId.of(claim.snapshot().id().value() + "-missing");
        default -> claim.snapshot().id();
      };
      writes.add(new RowWriter.RowWrite(atRevision(claim.snapshot(), expected), noted(claim.snapshot(), id, AWKWARD_TEXTS.get(i)),
          claim));
    }

    int[] outcomes;
    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      outcomes = RowWriter.of(dialect(database)).write(connection, writes);
      connection.commit();
    }

    int w = RowWriter.WRITTEN;
    int n = RowWriter.NOT_MATCHED;
    assertThat(outcomes).as("each row's outcome").containsExactly(w, n, n, w, n, w, n, w);
    for (int i = 0; i < claims.size(); i++) {
      OutboxEntry expected = outcomes[i] == w ? writes.get(i).written() : claims.get(i).snapshot();
      assertThat(stored(kit, database, claims.get(i).snapshot().id())).as("row %d as stored", i).contains(expected);
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  @DisplayName("every awkward text is stored as it was given, and a null stays null")
  void storesTextsExactly(TestDatabase database) throws SQLException {
    JpaTestKit kit = cleanKit(database);
    List<Claim> claims = claims(kit, AWKWARD_TEXTS.size() + 1);
    List<RowWriter.RowWrite> writes = notes(claims, i -> i < AWKWARD_TEXTS.size() ? AWKWARD_TEXTS.get(i) : null);

    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      assertThat(RowWriter.of(dialect(database)).write(connection, writes)).as("each row's outcome")
          .containsOnly(RowWriter.WRITTEN);
      connection.commit();
    }

    for (RowWriter.RowWrite write : writes) {
      OutboxEntry stored = stored(kit, database, write.written().id()).orElseThrow();
      assertThat(stored.lastError()).as("last error of %s", stored.id()).isEqualTo(write.written().lastError());
      assertThat(stored).isEqualTo(write.written());
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  @DisplayName("under the caller's autocommit a miss is still told apart, the written rows are committed and the connection stays in autocommit")
  void autocommittedCallerGetsExactOutcomes(TestDatabase database) throws SQLException {
    JpaTestKit kit = cleanKit(database);
    List<Claim> claims = claims(kit, 3);
    List<RowWriter.RowWrite> writes = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      OutboxEntry snapshot = claims.get(i).snapshot();
      long expected = i == 1 ? snapshot.revision() - 1 : snapshot.revision();
      writes.add(new RowWriter.RowWrite(atRevision(snapshot, expected), noted(snapshot, snapshot.id(), "note " + i),
          claims.get(i)));
    }

    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(true);
      assertThat(RowWriter.of(dialect(database)).write(connection, writes)).as("each row's outcome")
          .containsExactly(RowWriter.WRITTEN, RowWriter.NOT_MATCHED, RowWriter.WRITTEN);
      assertThat(connection.getAutoCommit()).as("autocommit afterwards").isTrue();
    }
    // read on another connection: only committed rows are seen there
    assertThat(stored(kit, database, claims.get(0).snapshot().id())).contains(writes.get(0).written());
    assertThat(stored(kit, database, claims.get(1).snapshot().id())).contains(claims.get(1).snapshot());
    assertThat(stored(kit, database, claims.get(2).snapshot().id())).contains(writes.get(2).written());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(value = TestDatabase.class, names = {"POSTGRESQL", "MARIADB"})
  @DisplayName("a column no row changes keeps each row's own stored value; a column one row changes is written in that row")
  void leavesUnchangedColumnsAsStoredAndWritesTheRest(TestDatabase database) throws SQLException {
    JpaTestKit kit = cleanKit(database);
    List<Claim> claims = claims(kit, 4);
    List<RowWriter.RowWrite> notes = notes(claims, i -> "note " + i);
    List<RowWriter.RowWrite> progress = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      OutboxEntry noted = notes.get(i).written();
      OutboxEntry next = noted.toBuilder().progress(i == 2 ? "only this row's progress" : noted.progress().orElseThrow())
          .nextRevision(WriteStamp.fresh()).build();
      progress.add(new RowWriter.RowWrite(noted, next, claims.get(i)));
    }

    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(true);
      RowWriter writer = RowWriter.of(dialect(database));
      assertThat(writer.write(connection, notes)).as("the notes' outcomes").containsOnly(RowWriter.WRITTEN);
      assertThat(writer.write(connection, progress)).as("the progress' outcomes").containsOnly(RowWriter.WRITTEN);
    }

    for (int i = 0; i < claims.size(); i++) {
      OutboxEntry written = progress.get(i).written();
      assertThat(stored(kit, database, written.id())).as("row %d as stored", i).contains(written);
    }
  }

  private static JpaTestKit cleanKit(TestDatabase database) {
    JpaTestKit kit = JpaFixtures.of(database);
    kit.fixture().clean();
    return kit;
  }

  private static List<Claim> claims(JpaTestKit kit, int count) {
    JpaOutboxStore store = JpaOutboxStore.builder(kit.entityManagerFactory()).build();
    List<OutboxMessage> messages = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      messages.add(OutboxMessage.of("t", new byte[] {(byte) i}));
    }
    store.appendAll(messages);
    List<Claim> claims = store.claimDue(WorkerId.of("set-writer-test"), count, Duration.ofMinutes(5));
    assertThat(claims).as("claims to write back").hasSize(count);
    return claims;
  }

  /** For each claim, a write of its snapshot with {@code note} of its index, at the snapshot's revision. */
  private static List<RowWriter.RowWrite> notes(List<Claim> claims, IntFunction<String> note) {
    List<RowWriter.RowWrite> writes = new ArrayList<>();
    for (int i = 0; i < claims.size(); i++) {
      OutboxEntry snapshot = claims.get(i).snapshot();
      writes.add(new RowWriter.RowWrite(snapshot, noted(snapshot, snapshot.id(), note.apply(i)), claims.get(i)));
    }
    return writes;
  }

  /** The next state of a claimed entry under {@code id}: a note and a new revision with a stamp of its own. */
  private static OutboxEntry noted(OutboxEntry snapshot, EntryId id, String note) {
    return snapshot.toBuilder().id(id).lastError(note).progress(note).nextRevision(WriteStamp.fresh()).build();
  }

  /** {@code snapshot} as if the row had been at {@code revision}: a basis the stored row does not match. */
  private static OutboxEntry atRevision(OutboxEntry snapshot, long revision) {
    return snapshot.toBuilder().revision(revision).build();
  }

  private static Optional<OutboxEntry> stored(JpaTestKit kit, TestDatabase database, EntryId id) throws SQLException {
    try (Connection connection = kit.dataSource().getConnection()) {
      return EntryRows.find(connection, id, dialect(database));
    }
  }

  private static SqlDialect dialect(TestDatabase database) {
    return database == TestDatabase.POSTGRESQL ? SqlDialect.POSTGRESQL : SqlDialect.MARIADB;
  }
}
