package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import liquibase.Scope;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;

/**
 * The outbox's migrations as a Liquibase changelog of the starter's
 * ({@code io/claimedoutbox/spring/liquibase/<database>.xml}, the same SQL files as for Flyway), with
 * a changelog table of its own so they never meet the application's changesets. Loaded only when
 * Liquibase is on the classpath.
 */
final class LiquibaseMigration {

  private LiquibaseMigration() {}

  static void migrate(DataSource dataSource, OutboxDatabase database, String changelogTable) {
    try (Connection connection = dataSource.getConnection()) {
      Database target = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
      target.setDatabaseChangeLogTableName(changelogTable);
      target.setDatabaseChangeLogLockTableName(changelogTable + "_lock");
      Scope.child(Scope.Attr.resourceAccessor.name(), new ClassLoaderResourceAccessor(LiquibaseMigration.class.getClassLoader()),
          () -> new CommandScope(UpdateCommandStep.COMMAND_NAME)
              .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, target)
              .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG,
                  "io/claimedoutbox/spring/liquibase/" + database.folder() + ".xml")
              .execute());
    } catch (SQLException failure) {
      throw new OutboxStartupException("Claimed Outbox cannot migrate its table: " + failure.getMessage(), failure);
    } catch (Exception failure) {
      throw new OutboxStartupException("Claimed Outbox's Liquibase migration failed: " + failure.getMessage(), failure);
    }
  }
}
