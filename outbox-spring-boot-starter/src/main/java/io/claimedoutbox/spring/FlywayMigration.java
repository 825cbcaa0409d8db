package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/** The outbox's migrations in a Flyway of their own (loaded only when Flyway is on the classpath). */
final class FlywayMigration {

  private FlywayMigration() {}

  static void migrate(DataSource dataSource, OutboxDatabase database, String historyTable) {
    Flyway.configure(FlywayMigration.class.getClassLoader())
        .dataSource(dataSource)
        .table(historyTable)
        .locations("classpath:" + OutboxSchema.RESOURCE_ROOT + "/" + database.folder())
        // The application's own tables are there already: start the outbox's history at version 0.
        .baselineOnMigrate(true)
        .baselineVersion("0")
        .load()
        .migrate();
  }
}
