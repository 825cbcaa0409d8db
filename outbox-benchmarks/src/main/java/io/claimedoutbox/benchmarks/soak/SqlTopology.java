package io.claimedoutbox.benchmarks.soak;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The SQL store over a data source on the SQL topologies of {@code .ci/topology} and
 * {@code .ci/pgbouncer}, reached the way production reaches them: a multi-host URL that asks for the
 * primary, PgBouncer's port, a MariaDB Connector/J {@code sequential} list of the Galera nodes starting
 * at a different node for each drain.
 */
final class SqlTopology implements Topology {

  /** The SQL topologies the soak knows. */
  enum Kind {
    PG_SYNC("PostgreSQL primary + synchronous standby", "synchronous (synchronous_standby_names = '*')", false,
        "kill -9 of the primary, promote of the standby, old primary rebuilt as the standby"),
    PG_ASYNC("PostgreSQL primary + asynchronous standby", "asynchronous streaming", true,
        "kill -9 of the primary, promote of the standby, old primary rebuilt as the standby"),
    PGBOUNCER("PostgreSQL behind PgBouncer (transaction pooling)", "none (one server)", false,
        "kill -9 of PgBouncer, started again"),
    GALERA("MariaDB Galera, 3 nodes, drains on different nodes", "Galera certification (virtually synchronous)",
        false, "kill -9 of one node (in turn), 2 s down, rejoined");

    final String title;
    final String replication;
    final boolean mayLose;
    final String fault;

    Kind(String title, String replication, boolean mayLose, String fault) {
      this.title = title;
      this.replication = replication;
      this.mayLose = mayLose;
      this.fault = fault;
    }
  }

  private static final Duration GALERA_NODE_DOWN = Duration.ofSeconds(2);
  private static final String[] GALERA_NODES = {"127.0.0.1:3316", "127.0.0.1:3317", "127.0.0.1:3318"};

  private final Kind kind;
  private final TopologyScript script;
  private final List<HikariDataSource> pools = new ArrayList<>();
  private final List<OutboxClaimOutcomeStore> drainStores = new ArrayList<>();
  private final OutboxClaimOutcomeStore appender;
  private final WritePositions positions;

  SqlTopology(Kind kind, TopologyScript script) throws Exception {
    this.kind = kind;
    this.script = script;
    switch (kind) {
      case PG_SYNC -> script.run("topology", "start", "pg-sync");
      case PG_ASYNC -> script.run("topology", "start", "pg-async");
      case PGBOUNCER -> script.run("pgbouncer", "start");
      case GALERA -> script.run("topology", "start", "galera");
    }
    OutboxDatabase database = kind == Kind.GALERA ? OutboxDatabase.MARIADB : OutboxDatabase.POSTGRESQL;
    // The soak's own reads (its books) ask a Galera node to catch up with the group first.
    HikariDataSource appenderPool = pool(kind == Kind.GALERA ? url(0) + "&sessionVariables=wsrep_sync_wait=1" : url(0));
    recreateTable(appenderPool, database);
    this.appender = JdbcOutboxStore.builder(appenderPool).database(database).build();
    if (kind == Kind.GALERA) {
      for (int node = 0; node < GALERA_NODES.length; node++) {
        drainStores.add(JdbcOutboxStore.builder(pool(url(node))).database(database).build());
      }
    } else {
      drainStores.add(JdbcOutboxStore.builder(pool(url(0))).database(database).build());
    }
    this.positions = switch (kind) {
      case PG_SYNC -> WritePositions.postgresql(List.of(5441, 5442));
      case PG_ASYNC -> WritePositions.postgresql(List.of(5443, 5444));
      case PGBOUNCER, GALERA -> null;
    };
  }

  private String url(int firstNode) {
    return switch (kind) {
      case PG_SYNC -> "jdbc:postgresql://127.0.0.1:5441,127.0.0.1:5442/outbox_test?user=postgres"
          + "&targetServerType=primary&connectTimeout=2&ApplicationName=outbox-topology-soak";
      case PG_ASYNC -> "jdbc:postgresql://127.0.0.1:5443,127.0.0.1:5444/outbox_test?user=postgres"
          + "&targetServerType=primary&connectTimeout=2&ApplicationName=outbox-topology-soak";
      case PGBOUNCER -> "jdbc:postgresql://127.0.0.1:6439/outbox_test?user=postgres&prepareThreshold=0&connectTimeout=2";
      case GALERA -> {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < GALERA_NODES.length; i++) {
          order.add(GALERA_NODES[(firstNode + i) % GALERA_NODES.length]);
        }
        yield "jdbc:mariadb:sequential://" + String.join(",", order) + "/outbox_test?user=root&connectTimeout=2000";
      }
    };
  }

  private HikariDataSource pool(String url) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(16);
    config.setConnectionTimeout(5_000);
    config.setPoolName("outbox-topology-" + pools.size());
    if (kind == Kind.GALERA) {
      config.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
    }
    HikariDataSource pool = new HikariDataSource(config);
    pools.add(pool);
    return pool;
  }

  private static void recreateTable(HikariDataSource pool, OutboxDatabase database) throws SQLException {
    try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS outbox_entry");
    }
    OutboxSchema.create(pool, database);
  }

  @Override
  public String name() {
    return kind.title;
  }

  @Override
  public String replication() {
    return kind.replication;
  }

  @Override
  public boolean mayLoseAcknowledgedWrites() {
    return kind.mayLose;
  }

  @Override
  public OutboxClaimOutcomeStore appender() {
    return appender;
  }

  @Override
  public OutboxClaimOutcomeStore storeOfDrain(int index) {
    return drainStores.get(index % drainStores.size());
  }

  @Override
  public List<OutboxClaimOutcomeStore> stores() {
    LinkedHashSet<OutboxClaimOutcomeStore> all = new LinkedHashSet<>(drainStores);
    all.add(appender);
    return List.copyOf(all);
  }

  @Override
  public FaultTimes fault(int index) throws Exception {
    return switch (kind) {
      case PG_SYNC, PG_ASYNC -> {
        TopologyScript.Run failover = script.run("topology", "failover", kind == Kind.PG_SYNC ? "pg-sync" : "pg-async");
        long lagSince = positions.lastWrittenUpTo((int) failover.number("killing primary"),
            failover.number("standby at position"), failover.at("killing"));
        yield new FaultTimes(failover.at("killing"), failover.at("promoted"), failover.number("standby behind"),
            lagSince);
      }
      case PGBOUNCER -> {
        TopologyScript.Run restart = script.run("pgbouncer", "restart");
        yield FaultTimes.withoutLag(restart.at("[pgbouncer] killing"), restart.at("[pgbouncer] up"));
      }
      case GALERA -> {
        String node = Integer.toString(index % GALERA_NODES.length + 1);
        long killed = script.run("topology", "kill-node", "galera", node).at("killing");
        // The node stays down a while so its drains work on the other two; then it rejoins by IST.
        TimeUnit.MILLISECONDS.sleep(GALERA_NODE_DOWN.toMillis());
        script.run("topology", "rejoin", "galera", node);
        // the other two nodes went on serving writes once the group evicted the dead one
        yield FaultTimes.withoutLag(killed, killed);
      }
    };
  }

  @Override
  public String faultDescription() {
    return kind.fault;
  }

  @Override
  public void close() throws InterruptedException {
    if (positions != null) {
      positions.close();
    }
    pools.forEach(HikariDataSource::close);
  }
}
