package io.claimedoutbox.adapter.jpa.testkit;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.JpaOutbox;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.conformance.BackendFixture;
import io.claimedoutbox.conformance.ClosingStore;
import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import jakarta.persistence.EntityManagerFactory;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The SQL adapter's conformance fixture: the kit's table read, damaged and locked with plain JDBC;
 * stores built by either route ({@link StoreRoute}), the SQL store over a data source or the JPA
 * integration over an entity manager factory.
 */
final class JdbcStoreFixture extends BackendFixture {

  /** How the fixture's stores are built. */
  enum StoreRoute {
    /** {@code JdbcOutboxStore.builder(dataSource)}: no JPA provider. */
    DATA_SOURCE,
    /** {@code JpaOutboxStore.builder(entityManagerFactory)}. */
    ENTITY_MANAGER_FACTORY
  }

  private final JpaTestKit kit;
  private final StoreRoute route;

  JdbcStoreFixture(JpaTestKit kit, String backendName, StoreRoute route) {
    super(backendName, capabilities(kit));
    this.kit = kit;
    this.route = route;
  }

  private static Set<FixtureCapability> capabilities(JpaTestKit kit) {
    Set<FixtureCapability> capabilities = EnumSet.of(FixtureCapability.STORE_TIME);
    if (UnreachableServer.of(kit.database()).isPresent()) {
      capabilities.add(FixtureCapability.ROW_LOCKS);
      capabilities.add(FixtureCapability.UNREACHABLE_BACKEND);
    }
    if (ServerUrl.of(kit.dataSource()).isPresent()) {
      capabilities.add(FixtureCapability.FAULT_PROXY);
    }
    return capabilities;
  }

  @Override
  public void clean() {
    update("DELETE FROM outbox_entry");
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return builder().clock(context.clock()).build();
  }

  private JdbcOutboxStore.Builder<? extends JdbcOutboxStore> builder() {
    return route == StoreRoute.DATA_SOURCE ? kit.jdbcStoreBuilder() : kit.storeBuilder();
  }

  @Override
  public OutboxClaimOutcomeStore openStoreOnStoreTime(FixtureContext context) {
    return builder().clock(context.clock()).storeTime().build();
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    String sql = "SELECT id, status, claim_owner, claim_generation, revision, write_stamp"
        + " FROM outbox_entry WHERE id = ?";
    try (Connection connection = kit.dataSource().getConnection();
        PreparedStatement select = connection.prepareStatement(sql)) {
      select.setString(1, id.value());
      try (ResultSet row = select.executeQuery()) {
        if (!row.next()) {
          return Optional.empty();
        }
        return Optional.of(new RawEntryState(row.getString(1), row.getString(2), row.getString(3),
            row.getLong(4), row.getLong(5), row.getString(6)));
      }
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public long countRaw() {
    try (Connection connection = kit.dataSource().getConnection();
        Statement statement = connection.createStatement();
        ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM outbox_entry")) {
      count.next();
      return count.getLong(1);
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  @Override
  public void corrupt(EntryId id) {
    update("UPDATE outbox_entry SET status = 'SHIPPED' WHERE id = '" + id.value() + "'");
  }

  @Override
  public void holdRowLock(EntryId id, Runnable whileLocked) {
    try (Connection connection = kit.dataSource().getConnection()) {
      connection.setAutoCommit(false);
      try (PreparedStatement lock = connection.prepareStatement(
          "SELECT id FROM outbox_entry WHERE id = ? FOR UPDATE")) {
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

  @Override
  public Optional<OutboxClaimOutcomeStore> openUnreachableStore(FixtureContext context) {
    return UnreachableServer.of(kit.database()).map(server -> {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(server.url());
      config.setConnectionTimeout(250);
      config.setInitializationFailTimeout(-1);
      config.setMaximumPoolSize(1);
      HikariDataSource unreachable = new HikariDataSource(config);
      if (route == StoreRoute.DATA_SOURCE) {
        JdbcOutboxStore store = JdbcOutboxStore.builder(unreachable).database(kit.database()).clock(context.clock())
            .build();
        return new ClosingStore(store, unreachable::close);
      }
      EntityManagerFactory deadFactory = JpaOutbox.entityManagerFactory(unreachable, Map.of(
          "hibernate.dialect", server.dialect(),
          "hibernate.boot.allow_jdbc_metadata_access", "false"));
      JpaOutboxStore store = JpaOutboxStore.builder(deadFactory).clock(context.clock()).build();
      return new ClosingStore(store, () -> {
        deadFactory.close();
        unreachable.close();
      });
    });
  }

  /** A pool of its own to the same database, every connection through the suite's proxy. */
  @Override
  public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
    ServerUrl server = ServerUrl.of(kit.dataSource()).orElseThrow();
    InetSocketAddress proxy = proxies.proxyFor(server.host(), server.port());
    HikariDataSource original = (HikariDataSource) kit.dataSource();
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server.through(proxy.getHostString(), proxy.getPort()));
    config.setMaximumPoolSize(4);
    config.setConnectionTimeout(5_000);
    config.setTransactionIsolation(original.getTransactionIsolation());
    HikariDataSource pool = new HikariDataSource(config);
    if (route == StoreRoute.DATA_SOURCE) {
      return new ClosingStore(JdbcOutboxStore.builder(pool).clock(context.clock()).build(), pool::close);
    }
    EntityManagerFactory factory = JpaOutbox.entityManagerFactory(pool, Map.of());
    JpaOutboxStore store = JpaOutboxStore.builder(factory).clock(context.clock()).build();
    return new ClosingStore(store, () -> {
      factory.close();
      pool.close();
    });
  }

  private void update(String sql) {
    try (Connection connection = kit.dataSource().getConnection(); Statement statement = connection.createStatement()) {
      statement.executeUpdate(sql);
    } catch (SQLException failure) {
      throw new IllegalStateException(failure);
    }
  }

  /** A server JDBC URL taken apart at its address, so a proxy's address can be put in its place. */
  private record ServerUrl(String before, String host, int port, String after) {
    private static final java.util.regex.Pattern ADDRESS =
        java.util.regex.Pattern.compile("(jdbc:(?:postgresql|mariadb|mysql)://)([^/:?,]+)(?::(\\d+))?(.*)");

    static Optional<ServerUrl> of(javax.sql.DataSource dataSource) {
      if (!(dataSource instanceof HikariDataSource hikari) || hikari.getJdbcUrl() == null) {
        return Optional.empty();
      }
      java.util.regex.Matcher parts = ADDRESS.matcher(hikari.getJdbcUrl());
      if (!parts.matches()) {
        return Optional.empty();
      }
      int defaultPort = parts.group(1).contains("postgresql") ? 5432 : 3306;
      int port = parts.group(3) == null ? defaultPort : Integer.parseInt(parts.group(3));
      return Optional.of(new ServerUrl(parts.group(1), parts.group(2), port, parts.group(4)));
    }

    String through(String proxyHost, int proxyPort) {
      return before + proxyHost + ":" + proxyPort + after;
    }
  }

  /** Where nothing listens, for each server database: port 1 on loopback, with short timeouts. */
  private record UnreachableServer(String url, String dialect) {
    static Optional<UnreachableServer> of(OutboxDatabase database) {
      return switch (database) {
        case POSTGRESQL -> Optional.of(new UnreachableServer(
            "jdbc:postgresql://127.0.0.1:1/unreachable?user=postgres&connectTimeout=1",
            "org.hibernate.dialect.PostgreSQLDialect"));
        case MARIADB -> Optional.of(new UnreachableServer(
            "jdbc:mariadb://127.0.0.1:1/unreachable?user=root&connectTimeout=1000",
            "org.hibernate.dialect.MariaDBDialect"));
        case H2 -> Optional.empty();
      };
    }
  }
}
