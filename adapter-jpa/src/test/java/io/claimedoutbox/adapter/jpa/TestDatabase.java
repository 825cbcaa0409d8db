package io.claimedoutbox.adapter.jpa;

import java.util.Optional;

/**
 * The databases the adapter's tests run on, and where each is found: an explicit URL (environment
 * variable or system property) first, then the service on its usual loopback port. H2 runs
 * in-process.
 */
enum TestDatabase {
  POSTGRESQL("PostgreSQL", OutboxDatabase.POSTGRESQL, "OUTBOX_POSTGRESQL_URL",
      "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres"),
  MARIADB("MariaDB", OutboxDatabase.MARIADB, "OUTBOX_MARIADB_URL",
      "jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root"),
  /**
   * The PostgreSQL above through PgBouncer in transaction pooling ({@code .ci/pgbouncer}): a server
   * session per transaction, so no server-side prepared statements.
   */
  PGBOUNCER("PostgreSQL behind PgBouncer (transaction pooling)", OutboxDatabase.POSTGRESQL, "OUTBOX_PGBOUNCER_URL",
      "jdbc:postgresql://127.0.0.1:6439/outbox_test?user=postgres&prepareThreshold=0"),
  /** One node of the three-node MariaDB Galera cluster of {@code .ci/topology start galera}. */
  GALERA("MariaDB Galera node", OutboxDatabase.MARIADB, "OUTBOX_GALERA_URL",
      "jdbc:mariadb://127.0.0.1:3316/outbox_test?user=root"),
  H2("H2", OutboxDatabase.H2, "OUTBOX_H2_URL",
      "jdbc:h2:mem:outbox_conformance;DB_CLOSE_DELAY=-1");

  final String displayName;
  final OutboxDatabase schema;
  final String urlVariable;
  final String defaultUrl;

  TestDatabase(String displayName, OutboxDatabase schema, String urlVariable, String defaultUrl) {
    this.displayName = displayName;
    this.schema = schema;
    this.urlVariable = urlVariable;
    this.defaultUrl = defaultUrl;
  }

  /** The explicit setting if there is one, else the usual loopback service. */
  String url() {
    String property = urlVariable.toLowerCase(java.util.Locale.ROOT).replace('_', '.');
    return Optional.ofNullable(System.getProperty(property))
        .or(() -> Optional.ofNullable(System.getenv(urlVariable)))
        .orElse(defaultUrl);
  }

  String howToProvide(String url) {
    return displayName + " is required for these tests but is not reachable at " + url + ". Start it"
        + " (`bash .ci/run` starts PostgreSQL, MariaDB, PgBouncer (`bash .ci/pgbouncer start`) and the Galera"
        + " cluster (`bash .ci/topology start galera`) and creates the outbox_test databases), or"
        + " point the tests at another server with the environment variable " + urlVariable
        + "=<jdbc url> (or -D" + urlVariable.toLowerCase(java.util.Locale.ROOT).replace('_', '.') + ").";
  }
}
