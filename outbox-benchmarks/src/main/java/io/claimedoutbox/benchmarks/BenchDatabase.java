package io.claimedoutbox.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The benchmark's own namespace on a database server: schema {@code outbox_bench} on PostgreSQL,
 * database {@code outbox_bench} on MariaDB, created at the start and dropped at the end, so the
 * run never touches other tables. One pool, shared by every contender on that server.
 */
final class BenchDatabase implements AutoCloseable {

  static final String NAMESPACE = "outbox_bench";

  private final String name;
  private final boolean postgreSql;
  private final String serverUrl;
  private final HikariDataSource dataSource;

  BenchDatabase(String jdbcUrl) throws SQLException {
    this.postgreSql = jdbcUrl.startsWith("jdbc:postgresql:");
    if (!postgreSql && !jdbcUrl.startsWith("jdbc:mariadb:")) {
      throw new IllegalArgumentException("a benchmark database URL starts with jdbc:postgresql: or jdbc:mariadb:, was "
          + jdbcUrl);
    }
    this.name = postgreSql ? "PostgreSQL" : "MariaDB";
    this.serverUrl = jdbcUrl;
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(postgreSql ? "DROP SCHEMA IF EXISTS " + NAMESPACE + " CASCADE" : "DROP DATABASE IF EXISTS " + NAMESPACE);
      statement.execute(postgreSql ? "CREATE SCHEMA " + NAMESPACE : "CREATE DATABASE " + NAMESPACE);
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(namespaced(jdbcUrl));
    config.setMaximumPoolSize(24);
    config.setPoolName("bench-" + name);
    if (!postgreSql) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    this.dataSource = new HikariDataSource(config);
  }

  private String namespaced(String url) {
    if (postgreSql) {
      return url + (url.contains("?") ? "&" : "?") + "currentSchema=" + NAMESPACE;
    }
    int query = url.indexOf('?');
    String base = query < 0 ? url : url.substring(0, query);
    String params = query < 0 ? "" : url.substring(query);
    int slash = base.indexOf('/', "jdbc:mariadb://".length());
    return (slash < 0 ? base : base.substring(0, slash)) + "/" + NAMESPACE + params;
  }

  String name() {
    return name;
  }

  boolean isPostgreSql() {
    return postgreSql;
  }

  DataSource dataSource() {
    return dataSource;
  }

  /** @return the single number {@code sql} selects, for example a {@code COUNT(*)} */
  long count(String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      result.next();
      return result.getLong(1);
    }
  }

  void execute(String sql) throws SQLException {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  @Override
  public void close() throws SQLException {
    dataSource.close();
    try (Connection connection = DriverManager.getConnection(serverUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(postgreSql ? "DROP SCHEMA IF EXISTS " + NAMESPACE + " CASCADE" : "DROP DATABASE IF EXISTS " + NAMESPACE);
    }
  }
}
