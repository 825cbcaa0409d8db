package io.claimedoutbox.benchmarks.soak;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import io.claimedoutbox.adapter.jpa.testkit.JpaTestKit;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The JPA adapter on PostgreSQL or MariaDB, in a namespace of its own; {@link #killConnections()}
 * ends every server session of the drains' pool ({@code pg_terminate_backend} of the sessions named
 * after the namespace, {@code KILL} of the sessions in the namespace's database).
 */
final class JdbcSoakTarget implements SoakTarget {

  private final String name;
  private final JdbcNamespace namespace;
  private final HikariDataSource pool;
  private final JpaTestKit kit;
  private final OutboxClaimOutcomeStore store;

  JdbcSoakTarget(String url) throws SQLException {
    this.namespace = JdbcNamespace.create(url, "outbox_soak");
    this.name = namespace.database() == OutboxDatabase.POSTGRESQL ? "PostgreSQL" : "MariaDB";
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(namespace.database() == OutboxDatabase.POSTGRESQL
        ? namespace.url() + "&ApplicationName=" + namespace.name() : namespace.url());
    config.setMaximumPoolSize(16);
    config.setConnectionTimeout(5_000);
    config.setPoolName("outbox-soak");
    if (namespace.database() == OutboxDatabase.MARIADB) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    this.pool = new HikariDataSource(config);
    this.kit = JpaTestKit.create(pool, namespace.database(), name);
    this.store = kit.storeBuilder().build();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public void killConnections() throws SQLException {
    try (Connection admin = DriverManager.getConnection(namespace.url()); Statement statement = admin.createStatement()) {
      if (namespace.database() == OutboxDatabase.POSTGRESQL) {
        statement.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            + " WHERE application_name = '" + namespace.name() + "' AND pid <> pg_backend_pid()");
        return;
      }
      List<Long> sessions = new ArrayList<>();
      try (ResultSet rows = statement.executeQuery("SELECT ID FROM information_schema.PROCESSLIST WHERE DB = '"
          + namespace.name() + "' AND ID <> CONNECTION_ID()")) {
        while (rows.next()) {
          sessions.add(rows.getLong(1));
        }
      }
      for (long session : sessions) {
        try {
          statement.execute("KILL " + session);
        } catch (SQLException alreadyGone) {
          // The session ended between the list and the kill: that is what a kill is for.
        }
      }
    }
  }

  @Override
  public void close() {
    kit.close();
    pool.close();
    namespace.close();
  }
}
