package io.claimedoutbox.adapter.jpa.testkit;

import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A namespace of one's own on a database server, new for every run, so a kit never touches data it
 * did not create and runs never meet: schema {@code <prefix>_<random>} in the URL's database on
 * PostgreSQL, database {@code <prefix>_<random>} on MariaDB, a fresh in-memory database on H2.
 * Closing it drops what it created.
 */
public final class JdbcNamespace implements AutoCloseable {

  private static final Pattern MARIADB_URL =
      Pattern.compile("(jdbc:(?:mariadb|mysql)://[^/?]+)(/[^?]*)?(\\?.*)?", Pattern.CASE_INSENSITIVE);

  private final OutboxDatabase database;
  private final String adminUrl;
  private final String name;
  private final String url;
  private final String dropStatement;

  private JdbcNamespace(OutboxDatabase database, String adminUrl, String name, String url, String dropStatement) {
    this.database = database;
    this.adminUrl = adminUrl;
    this.name = name;
    this.url = url;
    this.dropStatement = dropStatement;
  }

  /**
   * Creates a fresh namespace on the server {@code url} names.
   *
   * @param url a {@code jdbc:postgresql:}, {@code jdbc:mariadb:} (or {@code jdbc:mysql:}) or
   *     {@code jdbc:h2:} URL; on PostgreSQL the database it names must exist
   * @param prefix the start of the namespace's name, a plain SQL identifier
   * @return the namespace
   * @throws IllegalArgumentException if the URL names no database this kit knows, or is malformed
   * @throws SQLException if the server refuses or cannot be reached; the caller decides how to report it
   */
  public static JdbcNamespace create(String url, String prefix) throws SQLException {
    String name = prefix + "_" + UUID.randomUUID().toString().substring(0, 8);
    OutboxDatabase database = databaseOf(url);
    switch (database) {
      case POSTGRESQL -> {
        admin(url, "CREATE SCHEMA " + name);
        String working = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + name;
        return new JdbcNamespace(database, url, name, working, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
      }
      case MARIADB -> {
        Matcher parts = MARIADB_URL.matcher(url);
        if (!parts.matches()) {
          throw new IllegalArgumentException(
              "malformed MariaDB URL '" + url + "'; expected jdbc:mariadb://host[:port][/db][?options]");
        }
        admin(url, "CREATE DATABASE " + name);
        String query = parts.group(3) == null ? "" : parts.group(3);
        return new JdbcNamespace(database, url, name, parts.group(1) + "/" + name + query,
            "DROP DATABASE IF EXISTS " + name);
      }
      default -> {
        String working = "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1";
        return new JdbcNamespace(database, working, name, working, "SHUTDOWN");
      }
    }
  }

  /**
   * Which database a JDBC URL names.
   *
   * @param url the URL
   * @return the database
   * @throws IllegalArgumentException if it names none the adapter ships a schema for
   */
  public static OutboxDatabase databaseOf(String url) {
    String lower = url.toLowerCase(Locale.ROOT);
    if (lower.startsWith("jdbc:postgresql://")) {
      return OutboxDatabase.POSTGRESQL;
    }
    if (lower.startsWith("jdbc:mariadb://") || lower.startsWith("jdbc:mysql://")) {
      return OutboxDatabase.MARIADB;
    }
    if (lower.startsWith("jdbc:h2:")) {
      return OutboxDatabase.H2;
    }
    throw new IllegalArgumentException("url names no database the JPA adapter ships a schema for: " + url);
  }

  private static void admin(String url, String statement) throws SQLException {
    try (Connection connection = DriverManager.getConnection(url); Statement admin = connection.createStatement()) {
      admin.execute(statement);
    }
  }

  /** @return the database the namespace is on */
  public OutboxDatabase database() {
    return database;
  }

  /** @return the namespace's name, for example {@code outbox_cli_1a2b3c4d} */
  public String name() {
    return name;
  }

  /** @return a JDBC URL whose connections work inside the namespace */
  public String url() {
    return url;
  }

  /** Drops the namespace and everything in it; close the pools over {@link #url()} first. */
  @Override
  public void close() {
    try {
      admin(adminUrl, dropStatement);
    } catch (SQLException failure) {
      throw new IllegalStateException("cannot drop " + name + ": " + failure.getMessage(), failure);
    }
  }
}
