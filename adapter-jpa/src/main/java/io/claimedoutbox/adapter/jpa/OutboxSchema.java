package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.OutboxStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;

/**
 * The versioned DDL of the {@code outbox_entry} table, shipped in the jar as
 * {@code io/claimedoutbox/adapter/jpa/schema/<database>/V<n>__<what>.sql} so that Flyway, Liquibase
 * or a DBA can run the same files. {@link #create} runs them directly, for tests and simple setups.
 */
public final class OutboxSchema {

  /** The classpath folder holding one sub-folder of migrations per database. */
  public static final String RESOURCE_ROOT = "io/claimedoutbox/adapter/jpa/schema";

  private static final List<String> COMMON_MIGRATIONS = List.of("V1__create_outbox_entry.sql",
      "V2__ordering_key_index.sql", "V3__operations_indexes.sql");

  /** MariaDB's text columns compare exactly only under a binary collation (V4). */
  private static final List<String> MARIADB_MIGRATIONS = List.of("V4__exact_text_comparison.sql");

  /** The migrations after MariaDB's own, on every database. */
  private static final List<String> LATER_MIGRATIONS = List.of("V5__due_indexes_by_key.sql");

  private static final Pattern DROPPED_INDEX = Pattern.compile("DROP INDEX IF EXISTS (\\w+)");

  private OutboxSchema() {}

  /**
   * @param database the database
   * @return the classpath resources of its migrations, oldest first
   */
  public static List<String> migrationResources(OutboxDatabase database) {
    Arguments.requireNonNull(database, "database");
    List<String> names = new ArrayList<>(COMMON_MIGRATIONS);
    if (database == OutboxDatabase.MARIADB) {
      names.addAll(MARIADB_MIGRATIONS);
    }
    names.addAll(LATER_MIGRATIONS);
    return names.stream().map(name -> RESOURCE_ROOT + "/" + database.folder() + "/" + name).toList();
  }

  /**
   * @param database the database
   * @return every SQL statement of its migrations, in order, without comments
   */
  public static List<String> statements(OutboxDatabase database) {
    List<String> statements = new ArrayList<>();
    for (String resource : migrationResources(database)) {
      String sql = read(resource).lines()
          .filter(line -> !line.strip().startsWith("--"))
          .reduce("", (all, line) -> all + line + "\n");
      Arrays.stream(sql.split(";"))
          .map(String::strip)
          .filter(statement -> !statement.isEmpty())
          .forEach(statements::add);
    }
    return statements;
  }

  /**
   * Creates the table and its indexes by running every migration; safe to run at every start. A
   * statement whose object is already there (the table, a column, an index) is passed over, so a
   * second run changes nothing and a run over an older version of the table adds what the later
   * migrations add.
   *
   * @param dataSource where to create it
   * @param database which dialect of DDL to run
   * @throws OutboxStoreException if a statement fails for any other reason, with the statement and
   *     the database's own words
   */
  public static void create(DataSource dataSource, OutboxDatabase database) {
    Arguments.requireNonNull(dataSource, "dataSource");
    List<String> statements = withoutIndexesDroppedLater(statements(database));
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(true);
      for (String sql : statements) {
        try {
          statement.execute(sql);
        } catch (SQLException failure) {
          if (!isAlreadyThere(failure)) {
            throw new OutboxStoreException("cannot create the outbox schema on " + database + ": "
                + sql.lines().findFirst().orElse(sql) + " … failed: " + failure.getMessage(), failure);
          }
        }
      }
    } catch (SQLException failure) {
      throw new OutboxStoreException("cannot create the outbox schema on " + database + ": " + failure.getMessage(),
          failure);
    }
  }

  /**
   * The statements less each {@code CREATE INDEX} of an index a later migration drops: run at every
   * start, they would otherwise build the index again over the whole table only for the drop to
   * remove it. A table made before the drop still has it dropped once.
   */
  private static List<String> withoutIndexesDroppedLater(List<String> statements) {
    Set<String> dropped = new HashSet<>();
    for (String sql : statements) {
      Matcher drop = DROPPED_INDEX.matcher(sql);
      if (drop.lookingAt()) {
        dropped.add(drop.group(1));
      }
    }
    return statements.stream()
        .filter(sql -> dropped.stream().noneMatch(index -> sql.startsWith("CREATE INDEX " + index + " ON ")))
        .toList();
  }

  /**
   * "Already exists": PostgreSQL duplicate table, column or object (42P07, 42701, 42710); MariaDB
   * table, column or key name (1050, 1060, 1061); H2 table, index, column or constraint (42101,
   * 42111, 42121, 90045).
   */
  private static boolean isAlreadyThere(SQLException failure) {
    return Set.of("42P07", "42701", "42710").contains(failure.getSQLState())
        || Set.of(1050, 1060, 1061, 42101, 42111, 42121, 90045).contains(failure.getErrorCode());
  }

  private static String read(String resource) {
    try (InputStream in = OutboxSchema.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("missing schema resource " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException failure) {
      throw new UncheckedIOException(failure);
    }
  }
}
