package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.util.ClassUtils;

/**
 * The {@code outbox_entry} table at start, for both SQL backends ({@code jpa}, {@code jdbc}). With Flyway on the
 * classpath (and
 * {@code claimed-outbox.schema.migrate} on), the outbox's own migrations run in a Flyway of their
 * own: its history table ({@code claimed_outbox_schema_history}) is not the application's, so the
 * outbox's {@code V1__…} never meets the application's {@code V1__…}; with Liquibase instead, as
 * a changelog of the starter's with a changelog table of its own. Without either,
 * {@code claimed-outbox.schema.initialize} says whether the starter creates what is missing itself
 * ({@code OutboxSchema.create}; by default on H2 only). Then the start checks
 * that the table and every index the migrations create exist, and fails naming what is missing and
 * where the scripts are.
 */
final class OutboxSqlSchema {

  static final List<String> INDEXES = List.of("outbox_entry_unkeyed_due", "outbox_entry_keyed_due",
      "outbox_entry_key_order", "outbox_entry_finished", "outbox_entry_dead_letter");

  private OutboxSqlSchema() {}

  /**
   * Migrates or creates the schema as the settings say, then checks it.
   *
   * @return the database behind {@code dataSource}, read once here; {@code null} without a data source
   */
  static OutboxDatabase prepare(DataSource dataSource, ClaimedOutboxProperties.Schema settings) {
    if (dataSource == null) {
      return null;
    }
    OutboxDatabase database = databaseOf(dataSource);
    Optional<ClaimedOutboxProperties.Schema.Tool> migrating = settings.isMigrate()
        ? tool(settings.getTool()) : Optional.empty();
    migrating.ifPresent(tool -> {
      if (tool == ClaimedOutboxProperties.Schema.Tool.LIQUIBASE) {
        LiquibaseMigration.migrate(dataSource, database, settings.getChangelogTable());
      } else {
        FlywayMigration.migrate(dataSource, database, settings.getHistoryTable());
      }
    });
    if (migrating.isEmpty() && initializes(settings.getInitialize(), database)) {
      OutboxSchema.create(dataSource, database);
    }
    check(dataSource, database);
    return database;
  }

  /** Whether the starter creates what is missing of the schema itself, no migration tool running. */
  private static boolean initializes(ClaimedOutboxProperties.Schema.Initialize initialize, OutboxDatabase database) {
    return switch (initialize) {
      case ALWAYS -> true;
      case EMBEDDED -> database == OutboxDatabase.H2;
      case NEVER -> false;
    };
  }

  /** The tool that runs: the chosen one, or for {@code AUTO} Flyway, else Liquibase, else none. */
  private static Optional<ClaimedOutboxProperties.Schema.Tool> tool(ClaimedOutboxProperties.Schema.Tool chosen) {
    ClassLoader loader = OutboxSqlSchema.class.getClassLoader();
    boolean flyway = ClassUtils.isPresent("org.flywaydb.core.Flyway", loader);
    boolean liquibase = ClassUtils.isPresent("liquibase.command.CommandScope", loader);
    return switch (chosen) {
      case FLYWAY -> Optional.of(require(flyway, chosen, "org.flywaydb:flyway-core"));
      case LIQUIBASE -> Optional.of(require(liquibase, chosen, "org.liquibase:liquibase-core"));
      case AUTO -> flyway ? Optional.of(ClaimedOutboxProperties.Schema.Tool.FLYWAY)
          : liquibase ? Optional.of(ClaimedOutboxProperties.Schema.Tool.LIQUIBASE) : Optional.empty();
    };
  }

  private static ClaimedOutboxProperties.Schema.Tool require(boolean present, ClaimedOutboxProperties.Schema.Tool tool,
      String artifact) {
    if (!present) {
      throw new OutboxStartupException("claimed-outbox.schema.tool is " + tool + " but " + artifact
          + " is not on the classpath");
    }
    return tool;
  }

  static OutboxDatabase databaseOf(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      String product = connection.getMetaData().getDatabaseProductName();
      return OutboxDatabase.ofProductName(product).orElseThrow(() -> new OutboxStartupException(
          "Claimed Outbox's SQL backend supports PostgreSQL, MariaDB and H2, not " + product));
    } catch (SQLException unreachable) {
      throw new OutboxStartupException("Claimed Outbox cannot check its table: " + unreachable.getMessage(), unreachable);
    }
  }

  private static void check(DataSource dataSource, OutboxDatabase database) {
    String scripts = "the scripts " + OutboxSchema.migrationResources(database) + " in adapter-jpa's jar";
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      try {
        statement.executeQuery("SELECT id FROM outbox_entry WHERE 1 = 0").close();
      } catch (SQLException missing) {
        throw new OutboxStartupException("Claimed Outbox: the table outbox_entry does not exist. Set"
            + " claimed-outbox.schema.initialize=always (the starter creates it), add Flyway or Liquibase (the starter"
            + " runs its migrations, history in a table of their own) or run " + scripts + ". (" + missing.getMessage()
            + ")");
      }
      Set<String> present = indexes(connection.getMetaData());
      List<String> missing = INDEXES.stream().filter(index -> !present.contains(index)).toList();
      if (!missing.isEmpty()) {
        throw new OutboxStartupException("Claimed Outbox: outbox_entry lacks the index(es) " + missing + " (a table"
            + " made by Hibernate's ddl-auto has none of them: claims would scan the whole table). Add Flyway or"
            + " Liquibase, or run "
            + scripts + ".");
      }
      if (database == OutboxDatabase.MARIADB && !comparesExactly(statement)) {
        throw new OutboxStartupException("Claimed Outbox: outbox_entry compares text under a case- and accent-insensitive"
            + " collation (MariaDB's default), so topics, ordering keys and ids differing in case would be one value."
            + " Run V4__exact_text_comparison.sql (Flyway and Liquibase run it), one of " + scripts + ".");
      }
    } catch (SQLException failure) {
      throw new OutboxStartupException("Claimed Outbox cannot check its table: " + failure.getMessage(), failure);
    }
  }

  /** Whether the columns compared in filters use a binary collation (migration V4 on MariaDB). */
  private static boolean comparesExactly(Statement statement) throws SQLException {
    try (ResultSet row = statement.executeQuery("SELECT collation_name FROM information_schema.columns"
        + " WHERE table_schema = DATABASE() AND table_name = 'outbox_entry' AND column_name = 'topic'")) {
      return row.next() && row.getString(1) != null && row.getString(1).endsWith("_bin");
    }
  }

  private static Set<String> indexes(DatabaseMetaData metadata) throws SQLException {
    Set<String> names = new HashSet<>();
    for (String table : List.of("outbox_entry", "OUTBOX_ENTRY")) {
      try (ResultSet rows = metadata.getIndexInfo(null, null, table, false, true)) {
        while (rows.next()) {
          String name = rows.getString("INDEX_NAME");
          if (name != null) {
            names.add(name.toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    return names;
  }
}
