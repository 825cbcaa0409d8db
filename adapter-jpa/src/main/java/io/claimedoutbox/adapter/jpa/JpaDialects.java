package io.claimedoutbox.adapter.jpa;

import jakarta.persistence.EntityManagerFactory;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/** What the configured Hibernate dialect means for the store. */
final class JpaDialects {

  private JpaDialects() {}

  static ClaimLocking defaultLocking(EntityManagerFactory factory) {
    Dialect dialect = factory.unwrap(SessionFactoryImplementor.class).getJdbcServices().getDialect();
    boolean skipLocked = dialect instanceof PostgreSQLDialect
        || dialect instanceof MariaDBDialect
        || dialect instanceof MySQLDialect;
    return skipLocked ? ClaimLocking.SKIP_LOCKED : ClaimLocking.OPTIMISTIC;
  }
}
