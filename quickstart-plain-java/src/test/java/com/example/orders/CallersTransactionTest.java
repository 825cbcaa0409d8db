package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Applications without JPA append in their own transaction, on its connection, as a team writes it:
 * plain JDBC, and jOOQ's {@code transaction} with the connection it holds. A rolled-back transaction
 * leaves neither the order nor its event; a committed one is delivered by a drain.
 */
@DisplayName("Plain Java: appends inside the application's own plain JDBC or jOOQ transaction, on PostgreSQL and MariaDB")
class CallersTransactionTest {

  /** A database of the machine's, with a schema (PostgreSQL) or database (MariaDB) of this test's own. */
  enum Database {
    POSTGRESQL(OutboxDatabase.POSTGRESQL, SQLDialect.POSTGRES, "OUTBOX_POSTGRESQL_URL",
        "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres") {
      @Override
      String urlOf(String server, String name) {
        return server + (server.contains("?") ? "&" : "?") + "currentSchema=" + name;
      }
    },
    MARIADB(OutboxDatabase.MARIADB, SQLDialect.MARIADB, "OUTBOX_MARIADB_URL",
        "jdbc:mariadb://127.0.0.1:3306/outbox_test?user=root") {
      @Override
      String urlOf(String server, String name) {
        return server.replaceFirst("/[^/?]*(\\?|$)", "/" + name + "$1");
      }
    };

    final OutboxDatabase outbox;
    final SQLDialect dialect;
    final String server;

    Database(OutboxDatabase outbox, SQLDialect dialect, String variable, String fallback) {
      this.outbox = outbox;
      this.dialect = dialect;
      this.server = Optional.ofNullable(System.getenv(variable)).orElse(fallback);
    }

    abstract String urlOf(String server, String name);

    void run(String sql) {
      try (Connection admin = DriverManager.getConnection(server)) {
        admin.createStatement().execute(sql);
      } catch (SQLException unreachable) {
        throw new IllegalStateException(this + " is required for this test but " + server + " failed: "
            + unreachable.getMessage() + ". Start it (`bash .ci/run` does) or set the URL's environment variable.",
            unreachable);
      }
    }

    String createSpace(String name) {
      run((this == POSTGRESQL ? "CREATE SCHEMA " : "CREATE DATABASE ") + name);
      return urlOf(server, name);
    }

    void dropSpace(String name) {
      run((this == POSTGRESQL ? "DROP SCHEMA " + name + " CASCADE" : "DROP DATABASE " + name));
    }
  }

  /** How the application opens its transaction and appends in it. */
  enum Stack {
    PLAIN_JDBC {
      @Override
      void place(DataSource data, Database database, JdbcOutboxStore store, String orderId, boolean rollBack)
          throws SQLException {
        try (Connection connection = data.getConnection()) {
          connection.setAutoCommit(false);
          try (PreparedStatement order = connection.prepareStatement("INSERT INTO orders (id) VALUES (?)")) {
            order.setString(1, orderId);
            order.executeUpdate();
          }
          store.appendOn(connection, List.of(event(orderId)));
          if (rollBack) {
            connection.rollback();
          } else {
            connection.commit();
            store.entriesCommitted();
          }
        }
      }
    },
    JOOQ {
      @Override
      void place(DataSource data, Database database, JdbcOutboxStore store, String orderId, boolean rollBack) {
        DSLContext jooq = DSL.using(data, database.dialect);
        try {
          jooq.transaction(transaction -> {
            transaction.dsl().insertInto(DSL.table("orders")).columns(DSL.field("id")).values(orderId).execute();
            transaction.dsl().connection(connection -> store.appendOn(connection, List.of(event(orderId))));
            if (rollBack) {
              throw new OrderRefused();
            }
          });
          store.entriesCommitted();
        } catch (OrderRefused refused) {
          // jOOQ rolled the transaction back before rethrowing
        }
      }
    };

    abstract void place(DataSource data, Database database, JdbcOutboxStore store, String orderId, boolean rollBack)
        throws SQLException;
  }

  /** The application's reason to roll back. */
  private static final class OrderRefused extends RuntimeException {
    OrderRefused() {
      super("the order is refused", null, false, false);
    }
  }

  private static OutboxMessage event(String orderId) {
    return OutboxMessage.of("orders.placed", ("{\"orderId\":\"" + orderId + "\"}").getBytes(StandardCharsets.UTF_8));
  }

  static Stream<Arguments> stacksAndDatabases() {
    return Stream.of(Database.values()).flatMap(database -> Stream.of(Stack.values())
        .map(stack -> Arguments.of(stack, database)));
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("stacksAndDatabases")
  void rolledBackLeavesNothingCommittedIsDelivered(Stack stack, Database database) throws Exception {
    String name = "caller_" + UUID.randomUUID().toString().substring(0, 8);
    String url = database.createSpace(name);
    try (HikariDataSource data = new HikariDataSource()) {
      data.setJdbcUrl(url);
      OutboxSchema.create(data, database.outbox);
      try (Connection connection = data.getConnection()) {
        connection.createStatement().execute("CREATE TABLE orders (id VARCHAR(64) PRIMARY KEY)");
      }
      JdbcOutboxStore store = JdbcOutboxStore.builder(data).build();

      stack.place(data, database, store, "refused", true);
      assertThat(store.countByStatus().total()).as("entries after the rollback").isZero();
      assertThat(orders(data)).as("orders after the rollback").isEmpty();

      stack.place(data, database, store, "42", false);
      List<OutboxEntry> delivered = new CopyOnWriteArrayList<>();
      CountDownLatch one = new CountDownLatch(1);
      OutboxDrain drain = OutboxDrain.builder(store, message -> {
        delivered.add(message.entry());
        one.countDown();
      }).workerId(WorkerId.of("orders-" + stack)).build();
      drain.start();
      try {
        assertThat(one.await(30, TimeUnit.SECONDS)).as("delivered within 30 s").isTrue();
      } finally {
        drain.stop(Duration.ofSeconds(10));
      }
      assertThat(orders(data)).containsExactly("42");
      assertThat(delivered).singleElement().satisfies(entry -> assertThat(
          new String(entry.message().payload(), StandardCharsets.UTF_8)).isEqualTo("{\"orderId\":\"42\"}"));
      assertThat(store.countByStatus().total()).as("entries: the committed order's only").isEqualTo(1);
    } finally {
      database.dropSpace(name);
    }
  }

  private static List<String> orders(DataSource data) throws SQLException {
    try (Connection connection = data.getConnection();
        ResultSet rows = connection.createStatement().executeQuery("SELECT id FROM orders ORDER BY id")) {
      List<String> ids = new ArrayList<>();
      while (rows.next()) {
        ids.add(rows.getString(1));
      }
      return ids;
    }
  }
}
