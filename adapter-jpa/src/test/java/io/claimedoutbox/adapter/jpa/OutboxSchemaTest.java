package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import io.claimedoutbox.port.OutboxStoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link OutboxSchema#create} as an application runs it: at every start, over whatever an earlier version left. */
@DisplayName("OutboxSchema.create: safe at every start, upgrades older tables, says why when it cannot")
class OutboxSchemaTest {

  @ParameterizedTest
  @EnumSource(TestDatabase.class)
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
          .hasMessageContaining("CREATE INDEX outbox_entry_due").hasMessageContaining("column \"due_at\" does not exist");
    }
  }
}
