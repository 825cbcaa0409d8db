package io.claimedoutbox.adapter.jpa;

import java.util.Locale;

/** The databases whose schema the adapter ships and whose conformance runs in the build. */
public enum OutboxDatabase {
  /** PostgreSQL 12 or later. */
  POSTGRESQL,
  /** MariaDB 10.6 or later. */
  MARIADB,
  /** H2 2.x, for tests and embedded use. */
  H2;

  /** @return the folder of this database's migrations under {@link OutboxSchema#RESOURCE_ROOT} */
  public String folder() {
    return name().toLowerCase(Locale.ROOT);
  }
}
