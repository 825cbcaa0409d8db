package io.claimedoutbox.adapter.jpa;

import java.util.Locale;
import java.util.Optional;

/** The databases whose schema the adapter ships and whose conformance runs in the build. */
public enum OutboxDatabase {
  /** PostgreSQL 12 or later. */
  POSTGRESQL,
  /** MariaDB 10.6 or later. */
  MARIADB,
  /** H2 2.x, for tests and embedded use. */
  H2;

  /**
   * The database a JDBC driver names ({@link java.sql.DatabaseMetaData#getDatabaseProductName}): MySQL's
   * driver on MariaDB says {@code MySQL}.
   *
   * @param productName the driver's product name
   * @return the database, empty for one whose schema the adapter does not ship
   */
  public static Optional<OutboxDatabase> ofProductName(String productName) {
    String product = productName.toLowerCase(Locale.ROOT);
    if (product.contains("postgres")) {
      return Optional.of(POSTGRESQL);
    }
    if (product.contains("mariadb") || product.contains("mysql")) {
      return Optional.of(MARIADB);
    }
    return product.contains("h2") ? Optional.of(H2) : Optional.empty();
  }

  /** @return the folder of this database's migrations under {@link OutboxSchema#RESOURCE_ROOT} */
  public String folder() {
    return name().toLowerCase(Locale.ROOT);
  }
}
