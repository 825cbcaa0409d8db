package com.example.orders;

import com.zaxxer.hikari.HikariDataSource;
import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.OutboxDatabase;
import io.claimedoutbox.adapter.jpa.OutboxSchema;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Appends an event in the same transaction as the order, and a drain hands it to a handler. */
public final class QuickStart {

  private QuickStart() {}

  public static void main(String[] args) throws Exception {
    String url = args.length > 0 ? args[0] : "jdbc:postgresql://127.0.0.1:5432/outbox_test?user=postgres";
    try (HikariDataSource dataSource = new HikariDataSource()) {
      dataSource.setJdbcUrl(url);

      // 1. The table: creates what is missing, so it is safe at every start (or run the SQL files
      //    in adapter-jpa's jar, io/claimedoutbox/adapter/jpa/schema/<database>/, with Flyway or by hand).
      OutboxSchema.create(dataSource, OutboxDatabase.POSTGRESQL);
      JdbcOutboxStore store = JdbcOutboxStore.builder(dataSource).build();

      // 2. Append in your own transaction, on its connection: the event exists exactly when the order does.
      try (Connection connection = dataSource.getConnection()) {
        connection.setAutoCommit(false);
        try (PreparedStatement order = connection.prepareStatement("CREATE TABLE IF NOT EXISTS orders (id TEXT)")) {
          order.execute();
        }
        try (PreparedStatement order = connection.prepareStatement("INSERT INTO orders (id) VALUES ('42')")) {
          order.executeUpdate();
        }
        byte[] event = "{\"orderId\":\"42\"}".getBytes(StandardCharsets.UTF_8);
        store.appendOn(connection, List.of(OutboxMessage.of("orders.placed", event)));
        connection.commit();
      }

      // 3. A drain hands every entry to your handler; return normally once it is published, throw to retry later.
      CountDownLatch delivered = new CountDownLatch(1);
      OutboxDrain drain = OutboxDrain.builder(store, message -> {
        String payload = new String(message.entry().message().payload(), StandardCharsets.UTF_8);
        System.out.println("publishing " + message.entry().message().topic() + " " + payload);
        delivered.countDown();
      }).workerId(WorkerId.of("orders-1")).build();
      drain.start();
      System.out.println(delivered.await(30, TimeUnit.SECONDS) ? "delivered" : "not delivered within 30 s");
      drain.stop(Duration.ofSeconds(10));
    }
  }
}
