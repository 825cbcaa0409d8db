package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.port.OutboxStoreException;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;
import org.hibernate.jpa.HibernatePersistenceConfiguration;

/**
 * Bootstraps a Hibernate {@link EntityManagerFactory} that manages the outbox table, for
 * applications without a persistence unit of their own. Applications that have one add
 * {@link OutboxEntryRecord} to it instead.
 */
public final class JpaOutbox {

  private JpaOutbox() {}

  /**
   * A factory over {@code dataSource} managing {@link OutboxEntryRecord}, with the table expected to
   * exist ({@link OutboxSchema}). Run MariaDB connections at READ COMMITTED (for example HikariCP's
   * {@code transactionIsolation}) to avoid gap locks between claims and appends.
   *
   * @param dataSource the connections to use; pooled, not closed by the factory
   * @param properties further Hibernate or Jakarta Persistence properties, may be empty
   * @return the factory; close it when done
   * @throws OutboxStoreException when the database cannot be reached (checked with one connection
   *     unless {@code hibernate.dialect} is given) or the unit cannot start, with the driver's own
   *     reason (unreachable port, missing database, wrong password)
   */
  public static EntityManagerFactory entityManagerFactory(
      DataSource dataSource, Map<String, ?> properties) {
    Arguments.requireNonNull(dataSource, "dataSource");
    Arguments.requireNonNull(properties, "properties");
    HibernatePersistenceConfiguration configuration = new HibernatePersistenceConfiguration("claimed-outbox");
    configuration.managedClass(OutboxEntryRecord.class);
    configuration.property("hibernate.connection.datasource", dataSource);
    configuration.property("hibernate.jdbc.time_zone", "UTC");
    properties.forEach(configuration::property);
    if (!properties.containsKey("hibernate.dialect")) {
      probe(dataSource);
    }
    try {
      return configuration.createEntityManagerFactory();
    } catch (RuntimeException failure) {
      throw new OutboxStoreException("cannot start the outbox's persistence unit: " + rootMessage(failure)
          + " (check the data source's URL, database, user and password)", failure);
    }
  }

  /**
   * Hibernate reads the dialect from a first connection and, when that fails, logs the driver's
   * reason and throws "Unable to determine Dialect"; one connection of our own keeps the reason.
   */
  private static void probe(DataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      connection.isValid(1);
    } catch (SQLException | RuntimeException unreachable) {
      throw new OutboxStoreException("cannot connect to the outbox's database: " + rootMessage(unreachable)
          + " (check the data source's URL, database, user and password)", unreachable);
    }
  }

  /** The innermost message: the driver's own words ("Connection refused", "database … does not exist"). */
  private static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
