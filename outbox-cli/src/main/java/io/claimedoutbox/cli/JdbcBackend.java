package io.claimedoutbox.cli;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JPA adapter on H2 (in memory), PostgreSQL or MariaDB. On a server, the program works in a
 * namespace of its own, new for every run — schema {@code outbox_cli_<random>} in the URL's database
 * on PostgreSQL, database {@code outbox_cli_<random>} on MariaDB — which it creates at the start and
 * drops at the end, so it never touches anything it did not create, and runs never meet.
 */
final class JdbcBackend implements BackendSession {

  /** The prefix of every schema or database the program creates. */
  static final String NAMESPACE = "outbox_cli";
  private static final Pattern MARIADB_URL =
      Pattern.compile("(jdbc:(?:mariadb|mysql)://[^/?]+)(/[^?]*)?(\\?.*)?", Pattern.CASE_INSENSITIVE);

  private final String label;
  private final HikariDataSource dataSource;
  private final EntityManagerFactory factory;
  private final JpaOutboxStore store;
  private final Runnable dropNamespace;
  private final OutboxDatabase database;

  private JdbcBackend(String label, String url, String workingUrl, OutboxDatabase database, Clock clock,
      Runnable dropNamespace) {
    this.dropNamespace = dropNamespace;
    this.database = database;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(workingUrl);
    config.setMaximumPoolSize(32);
    config.setPoolName("outbox-cli");
    config.setConnectionTimeout(10_000);
    if (database == OutboxDatabase.MARIADB) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    try {
      this.dataSource = new HikariDataSource(config);
    } catch (RuntimeException unreachable) {
      throw new UnreachableBackendException("cannot reach " + label + " at " + url + ": " + rootMessage(unreachable),
          unreachable);
    }
    OutboxSchema.create(dataSource, database);
    this.factory = JpaOutbox.entityManagerFactory(dataSource, Map.of("hibernate.jdbc.batch_size", "100"));
    this.store = JpaOutboxStore.builder(factory).clock(clock).build();
    this.label = label + " " + serverVersion(dataSource) + " (JPA adapter, " + store.claimLocking() + " claims)";
  }

  static JdbcBackend h2(Clock clock) {
    String url = "jdbc:h2:mem:outbox-cli-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    return new JdbcBackend("H2 (embedded, in memory)", "h2:mem", url, OutboxDatabase.H2, clock, () -> { });
  }

  static JdbcBackend postgresql(String url, Clock clock) {
    String schema = uniqueNamespace();
    admin(url, "PostgreSQL", "CREATE SCHEMA " + schema);
    String working = url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    return new JdbcBackend("PostgreSQL", url, working, OutboxDatabase.POSTGRESQL, clock,
        () -> admin(url, "PostgreSQL", "DROP SCHEMA IF EXISTS " + schema + " CASCADE"));
  }

  static JdbcBackend mariadb(String url, Clock clock) {
    Matcher parts = MARIADB_URL.matcher(url);
    if (!parts.matches()) {
      throw new UsageException("malformed MariaDB URL '" + url + "'; expected jdbc:mariadb://host[:port][/db][?options]");
    }
    String query = parts.group(3) == null ? "" : parts.group(3);
    String database = uniqueNamespace();
    admin(url, "MariaDB", "CREATE DATABASE " + database);
    String working = parts.group(1) + "/" + database + query;
    return new JdbcBackend("MariaDB", url, working, OutboxDatabase.MARIADB, clock,
        () -> admin(url, "MariaDB", "DROP DATABASE IF EXISTS " + database));
  }

  static String uniqueNamespace() {
    return NAMESPACE + "_" + UUID.randomUUID().toString().substring(0, 8);
  }

  private static void admin(String url, String label, String... statements) {
    try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
      for (String sql : statements) {
        statement.execute(sql);
      }
    } catch (SQLException failure) {
      if (isMissingDatabase(failure)) {
        throw new UsageException("the database named in " + url + " does not exist on that " + label
            + " server (" + rootMessage(failure) + "); create it or name an existing one");
      }
      throw new UnreachableBackendException("cannot reach " + label + " at " + url + ": " + rootMessage(failure), failure);
    }
  }

  /** PostgreSQL's invalid_catalog_name, MariaDB's ER_BAD_DB_ERROR: the server answered, the database is not there. */
  private static boolean isMissingDatabase(SQLException failure) {
    return "3D000".equals(failure.getSQLState()) || failure.getErrorCode() == 1049;
  }

  private static String serverVersion(HikariDataSource dataSource) {
    try (Connection connection = dataSource.getConnection()) {
      return connection.getMetaData().getDatabaseProductVersion().split(" ")[0].split("-")[0];
    } catch (SQLException failure) {
      return "";
    }
  }

  static String rootMessage(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }

  @Override
  public String label() {
    return label;
  }

  @Override
  public OutboxClaimOutcomeStore store() {
    return store;
  }

  @Override
  public OutboxStoreFixture conformanceFixture() {
    return new JdbcFixture();
  }

  /** Rows read and damaged with plain JDBC, in the session's own schema or database. */
  private final class JdbcFixture implements OutboxStoreFixture {
    @Override
    public String backendName() {
      return label;
    }

    @Override
    public Set<FixtureCapability> capabilities() {
      return database == OutboxDatabase.H2 ? Set.of() : Set.of(FixtureCapability.ROW_LOCKS);
    }

    @Override
    public void clean() {
      execute("DELETE FROM outbox_entry");
    }

    @Override
    public OutboxClaimOutcomeStore openStore(FixtureContext context) {
      return JpaOutboxStore.builder(factory).clock(context.clock()).build();
    }

    @Override
    public Optional<RawEntryState> readRaw(EntryId id) {
      try (Connection connection = dataSource.getConnection();
          PreparedStatement select = connection.prepareStatement("SELECT id, status, claim_owner, claim_generation,"
              + " revision, write_stamp FROM outbox_entry WHERE id = ?")) {
        select.setString(1, id.value());
        try (ResultSet row = select.executeQuery()) {
          return row.next()
              ? Optional.of(new RawEntryState(row.getString(1), row.getString(2), row.getString(3), row.getLong(4),
                  row.getLong(5), row.getString(6)))
              : Optional.empty();
        }
      } catch (SQLException failure) {
        throw new IllegalStateException(failure);
      }
    }

    @Override
    public long countRaw() {
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
          ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM outbox_entry")) {
        count.next();
        return count.getLong(1);
      } catch (SQLException failure) {
        throw new IllegalStateException(failure);
      }
    }

    @Override
    public void corrupt(EntryId id) {
      execute("UPDATE outbox_entry SET status = 'SHIPPED' WHERE id = '" + id.value() + "'");
    }

    @Override
    public void holdRowLock(EntryId id, Runnable whileLocked) {
      try (Connection connection = dataSource.getConnection()) {
        connection.setAutoCommit(false);
        try (PreparedStatement lock = connection.prepareStatement("SELECT id FROM outbox_entry WHERE id = ? FOR UPDATE")) {
          lock.setString(1, id.value());
          lock.executeQuery().close();
          whileLocked.run();
        } finally {
          connection.rollback();
          connection.setAutoCommit(true);
        }
      } catch (SQLException failure) {
        throw new IllegalStateException(failure);
      }
    }

    private void execute(String sql) {
      try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
        statement.executeUpdate(sql);
      } catch (SQLException failure) {
        throw new IllegalStateException(failure);
      }
    }
  }

  @Override
  public RawCompareAndSet rawCompareAndSet(int keys) {
    try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS raw_cas");
      statement.execute("CREATE TABLE raw_cas (id INTEGER PRIMARY KEY, v BIGINT NOT NULL)");
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO raw_cas (id, v) VALUES (?, 0)")) {
        for (int key = 0; key < keys; key++) {
          insert.setInt(1, key);
          insert.addBatch();
        }
        insert.executeBatch();
      }
    } catch (SQLException failure) {
      throw new IllegalStateException("cannot prepare the raw compare-and-set table", failure);
    }
    return new RawCompareAndSet() {
      @Override
      public boolean compareAndSet(int key, long expected) {
        try (Connection connection = dataSource.getConnection();
            PreparedStatement update = connection.prepareStatement(
                "UPDATE raw_cas SET v = v + 1 WHERE id = ? AND v = ?")) {
          update.setInt(1, key);
          update.setLong(2, expected);
          return update.executeUpdate() == 1;
        } catch (SQLException failure) {
          throw new IllegalStateException(failure);
        }
      }

      @Override
      public void close() {
      }
    };
  }

  @Override
  public void close() {
    factory.close();
    dataSource.close();
    dropNamespace.run();
  }
}
