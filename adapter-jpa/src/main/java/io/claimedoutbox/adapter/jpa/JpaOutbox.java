package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Arguments;
import jakarta.persistence.EntityManagerFactory;
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
    return configuration.createEntityManagerFactory();
  }
}
