package io.claimedoutbox.adapter.jpa;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.hibernate.Session;
import org.hibernate.dialect.Dialect;
import org.hibernate.dialect.MariaDBDialect;
import org.hibernate.dialect.MySQLDialect;
import org.hibernate.dialect.PostgreSQLDialect;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The one place the adapter reaches into Hibernate ORM, for {@link JpaOutboxStore} only: the
 * connections and the database of an {@code EntityManagerFactory} (so a store built from one needs
 * no connection to start), the session's connection for appends joined to its transaction where the
 * provider predates Jakarta Persistence 3.2 ({@link EntityManagerConnection}), and the report of how
 * that transaction ended (Jakarta Persistence has no such callback). The SQL store itself
 * ({@link JdbcOutboxStore}) knows nothing of it.
 */
final class HibernateBridge {

  private HibernateBridge() {}

  /** The factory's own connection provider: the application's pool, given back the provider's way. */
  static ConnectionSource connections(EntityManagerFactory factory) {
    ConnectionProvider provider = factory.unwrap(SessionFactoryImplementor.class)
        .getServiceRegistry().requireService(ConnectionProvider.class);
    DataSource pool = provider.isUnwrappableAs(DataSource.class) ? provider.unwrap(DataSource.class) : null;
    return new ConnectionSource() {
      @Override
      public Connection borrow() throws SQLException {
        return provider.getConnection();
      }

      @Override
      public void giveBack(Connection connection) throws SQLException {
        provider.closeConnection(connection);
      }

      @Override
      public DataSource pool() {
        return pool;
      }
    };
  }

  /** The database behind the factory's dialect, known without a connection. */
  static SqlDialect dialect(EntityManagerFactory factory) {
    Dialect dialect = factory.unwrap(SessionFactoryImplementor.class).getJdbcServices().getDialect();
    if (dialect instanceof PostgreSQLDialect) {
      return SqlDialect.POSTGRESQL;
    }
    if (dialect instanceof MariaDBDialect || dialect instanceof MySQLDialect) {
      return SqlDialect.MARIADB;
    }
    return SqlDialect.OTHER;
  }

  /** JDBC work on the connection of the caller's session, inside its transaction (Hibernate 6.6). */
  static void onSessionConnection(EntityManager em, JdbcAccess.Work<?> work) {
    em.unwrap(Session.class).doWork(work::run);
  }

  /** Reports how the session's transaction ended, once it has. */
  static void afterCompletion(EntityManager em, Runnable committed, Runnable notCommitted) {
    em.unwrap(Session.class).getTransaction().registerSynchronization(new AfterCompletion(committed, notCommitted));
  }
}
