package io.claimedoutbox.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.testkit.JdbcNamespace;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The benchmark's own namespace on a database server — a fresh schema on PostgreSQL, a fresh
 * database on MariaDB ({@link JdbcNamespace}, the JPA adapter's test kit), dropped at the end — so
 * the run never touches other tables and never meets another run. One pool, shared by every
 * contender on that server.
 */
public final class BenchDatabase implements AutoCloseable {

  private final String name;
  private final JdbcNamespace namespace;
  private final HikariDataSource dataSource;

  public BenchDatabase(String jdbcUrl) throws SQLException {
    this.namespace = JdbcNamespace.create(jdbcUrl, "outbox_bench");
    if (namespace.database() == OutboxDatabase.H2) {
      namespace.close();
      throw new IllegalArgumentException("a benchmark database URL starts with jdbc:postgresql: or jdbc:mariadb:, was "
          + jdbcUrl);
    }
    this.name = isPostgreSql() ? "PostgreSQL" : "MariaDB";
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(namespace.url());
    config.setMaximumPoolSize(24);
    config.setPoolName("bench-" + name);
    if (!isPostgreSql()) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    this.dataSource = new HikariDataSource(config);
  }

  public String name() {
    return name;
  }

  /** @return the JDBC URL of the benchmark's namespace (another process can open it too) */
  public String url() {
    return namespace.url();
  }

  /** @return the schema (PostgreSQL) or database (MariaDB) this run's tables live in, its own */
  public String namespace() {
    return namespace.name();
  }

  public boolean isPostgreSql() {
    return namespace.database() == OutboxDatabase.POSTGRESQL;
  }

  public OutboxDatabase database() {
    return namespace.database();
  }

  public DataSource dataSource() {
    return dataSource;
  }

  /** @return the single number {@code sql} selects, for example a {@code COUNT(*)} */
  public long count(String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    }
  }

  public void execute(String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  @Override
  public void close() {
    dataSource.close();
    namespace.close();
  }
}
