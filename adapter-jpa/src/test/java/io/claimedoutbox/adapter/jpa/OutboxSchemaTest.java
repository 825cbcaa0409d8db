package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import io.claimedoutbox.port.OutboxStoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link OutboxSchema#create} as an application runs it: at every start, over whatever an earlier version left. */
@DisplayName("OutboxSchema.create: safe at every start, upgrades older tables, says why when it cannot")
class OutboxSchemaTest {

  // Each case builds a schema of its own (JdbcNamespace), chosen by a search_path startup parameter that
  // PgBouncer refuses; through PgBouncer the schema is created by PgBouncerConformanceTest's kit.

  @ParameterizedTest
  @EnumSource(value = TestDatabase.class, mode = EnumSource.Mode.EXCLUDE, names = "PGBOUNCER")
  @DisplayName("a second start creates nothing twice and fails nothing")
  void createTwiceInARow(TestDatabase database) throws Exception {
    try (JdbcNamespace namespace = JdbcNamespace.create(database.url(), "outbox_schema");
        HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(namespace.url());
      OutboxSchema.create(dataSource, database.schema);
      OutboxSchema.create(dataSource, database.schema);
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
          ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM outbox_entry")) {
        count.next();
        assertThat(count.getLong(1)).isZero();
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = TestDatabase.class, mode = EnumSource.Mode.EXCLUDE, names = "PGBOUNCER")
  @DisplayName("a table of schema version 4 (one due index) gets the two due indexes of version 5 and loses the old one; a new table never has it")
  void version4TableGetsTheDueIndexesByKey(TestDatabase database) throws Exception {
    try (JdbcNamespace older = JdbcNamespace.create(database.url(), "outbox_schema");
        HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(older.url());
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
        for (String sql : OutboxSchema.statements(database.schema)) {
          if (!sql.contains("keyed_due") && !sql.contains("DROP INDEX")) {
            statement.execute(sql);
          }
        }
      }
      assertThat(indexes(dataSource)).as("indexes of a version 4 table").contains("outbox_entry_due")
          .doesNotContain("outbox_entry_unkeyed_due");

      OutboxSchema.create(dataSource, database.schema);

      assertThat(indexes(dataSource)).as("indexes after the upgrade")
          .contains("outbox_entry_unkeyed_due", "outbox_entry_keyed_due").doesNotContain("outbox_entry_due");
    }
    try (JdbcNamespace fresh = JdbcNamespace.create(database.url(), "outbox_schema");
        HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(fresh.url());
      OutboxSchema.create(dataSource, database.schema);
      OutboxSchema.create(dataSource, database.schema);
      assertThat(indexes(dataSource)).as("indexes of a new table, started twice")
          .contains("outbox_entry_unkeyed_due", "outbox_entry_keyed_due").doesNotContain("outbox_entry_due");
    }
  }

  private static Set<String> indexes(HikariDataSource dataSource) throws Exception {
    Set<String> names = new TreeSet<>();
    try (Connection connection = dataSource.getConnection()) {
      String table = connection.getMetaData().storesUpperCaseIdentifiers() ? "OUTBOX_ENTRY" : "outbox_entry";
      try (ResultSet index = connection.getMetaData().getIndexInfo(connection.getCatalog(), connection.getSchema(),
          table, false, false)) {
        while (index.next()) {
          String name = index.getString("INDEX_NAME");
          if (name != null) {
            names.add(name.toLowerCase(Locale.ROOT));
          }
        }
      }
    }
    return names;
  }

  @Test
  @DisplayName("MariaDB: a table of schema version 3 (the server's case-insensitive collation) is converted to exact comparison")
  void mariaDbVersion3TableIsUpgraded() throws Exception {
    try (JdbcNamespace namespace = JdbcNamespace.create(TestDatabase.MARIADB.url(), "outbox_schema");
        HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(namespace.url());
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
        for (String sql : OutboxSchema.statements(OutboxDatabase.MARIADB)) {
          if (!sql.contains("CONVERT TO CHARACTER SET")) {
            statement.execute(sql.replace("DEFAULT CHARSET = utf8mb4", "DEFAULT CHARSET = utf8mb4 COLLATE utf8mb4_general_ci"));
          }
        }
      }
      assertThat(topicCollation(dataSource)).isEqualTo("utf8mb4_general_ci");

      OutboxSchema.create(dataSource, OutboxDatabase.MARIADB);

      assertThat(topicCollation(dataSource)).isEqualTo("utf8mb4_nopad_bin");
    }
  }

  private static String topicCollation(HikariDataSource dataSource) throws Exception {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
        ResultSet row = statement.executeQuery("SELECT collation_name FROM information_schema.columns"
            + " WHERE table_schema = DATABASE() AND table_name = 'outbox_entry' AND column_name = 'topic'")) {
      row.next();
      return row.getString(1);
    }
  }

  @Test
  @DisplayName("a statement that fails for another reason: OutboxStoreException with the statement and the database's words")
  void otherFailuresKeepTheDatabasesReason() throws Exception {
    try (JdbcNamespace namespace = JdbcNamespace.create(TestDatabase.POSTGRESQL.url(), "outbox_schema");
        HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(namespace.url());
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
        statement.execute("CREATE VIEW outbox_entry AS SELECT 1 AS id");
      }
      assertThatThrownBy(() -> OutboxSchema.create(dataSource, OutboxDatabase.POSTGRESQL))
          .isInstanceOf(OutboxStoreException.class)
          .hasMessageContaining("cannot create the outbox schema on POSTGRESQL")
          .hasMessageContaining("CREATE INDEX outbox_entry_key_order")
          .hasMessageContaining("column \"due_at\" does not exist");
    }
  }
}
