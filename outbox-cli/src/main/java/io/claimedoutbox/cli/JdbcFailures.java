package io.claimedoutbox.cli;

import java.sql.SQLException;

/** Sorts a JDBC failure at start into what the operator must change: the database's name, or the server. */
final class JdbcFailures {

  private JdbcFailures() {}

  /**
   * @param name the server's name in messages, for example {@code PostgreSQL}
   * @param url the URL as given (redacted when printed)
   * @param failure what opening the first connection threw
   * @return a usage error when the server answered that the database does not exist, else "unreachable"
   */
  static RuntimeException opening(String name, String url, Throwable failure) {
    SQLException sql = sqlCause(failure);
    if (sql != null && isMissingDatabase(sql)) {
      return new UsageException("the database named in " + url + " does not exist on that server ("
          + UnreachableBackendException.rootMessage(sql) + "); create it or name an existing one");
    }
    return UnreachableBackendException.at(name, url, failure);
  }

  /** PostgreSQL's invalid_catalog_name, MariaDB's ER_BAD_DB_ERROR: the server answered, the database is not there. */
  static boolean isMissingDatabase(SQLException failure) {
    return "3D000".equals(failure.getSQLState()) || failure.getErrorCode() == 1049;
  }

  /** PostgreSQL's undefined_table, MariaDB's ER_NO_SUCH_TABLE, H2's TABLE_OR_VIEW_NOT_FOUND. */
  static boolean isMissingTable(SQLException failure) {
    return "42P01".equals(failure.getSQLState()) || failure.getErrorCode() == 1146
        || "42S02".equals(failure.getSQLState()) || "42S04".equals(failure.getSQLState())
        || failure.getErrorCode() == 42104;
  }

  private static SQLException sqlCause(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SQLException sql) {
        return sql;
      }
    }
    return null;
  }
}
