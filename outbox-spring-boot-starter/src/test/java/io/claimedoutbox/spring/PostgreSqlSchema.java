package io.claimedoutbox.spring;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;

/** A schema of its own on the machine's PostgreSQL for one test class, dropped after. */
final class PostgreSqlSchema implements AutoCloseable {

  static final String SERVER = Optional.ofNullable(System.getenv("OUTBOX_POSTGRESQL_URL"))
      .orElse("jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres");

  private final String name = "outbox_starter_" + UUID.randomUUID().toString().substring(0, 8);

  PostgreSqlSchema() {
    run("CREATE SCHEMA " + name);
  }

  String url() {
    return SERVER + (SERVER.contains("?") ? "&" : "?") + "currentSchema=" + name;
  }

  private static void run(String sql) {
    try (Connection connection = DriverManager.getConnection(SERVER); Statement statement = connection.createStatement()) {
      statement.execute(sql);
    } catch (SQLException unreachable) {
      throw new IllegalStateException("PostgreSQL is required for the starter's tests but " + SERVER + " failed: "
          + unreachable.getMessage() + ". Start it (`bash .ci/run` does) or set OUTBOX_POSTGRESQL_URL.", unreachable);
    }
  }

  @Override
  public void close() {
    run("DROP SCHEMA " + name + " CASCADE");
  }
}
