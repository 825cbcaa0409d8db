package io.claimedoutbox.modulith.shop;

import org.springframework.boot.autoconfigure.AutoConfigurationPackage;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.modulith.events.Externalized;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** A Modulith-style application: an order service that saves an order and publishes its event in one transaction. */
@Configuration(proxyBeanMethods = false)
@AutoConfigurationPackage
public class ShopApplication {

  /** Externalized to the outbox topic {@code orders}, keyed by customer. */
  @Externalized("orders::#{customerId()}")
  public record OrderPlaced(String orderId, String customerId, long cents) {}

  /** Stays inside the application. */
  public record OrderViewed(String orderId) {}

  /** Saves orders and publishes their events, as a Modulith module's service would. */
  public static final class Orders {
    private final JdbcTemplate jdbc;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate transaction;

    Orders(JdbcTemplate jdbc, ApplicationEventPublisher events, PlatformTransactionManager transactions) {
      this.jdbc = jdbc;
      this.events = events;
      this.transaction = new TransactionTemplate(transactions);
    }

    /** @param rollBack whether the transaction rolls back after the event was published */
    public void place(OrderPlaced order, boolean rollBack) {
      transaction.executeWithoutResult(status -> {
        jdbc.update("INSERT INTO shop_order (id) VALUES (?)", order.orderId());
        events.publishEvent(order);
        events.publishEvent(new OrderViewed(order.orderId()));
        if (rollBack) {
          status.setRollbackOnly();
        }
      });
    }
  }

  @Bean
  Orders orders(JdbcTemplate jdbc, ApplicationEventPublisher events, PlatformTransactionManager transactions) {
    jdbc.execute("CREATE TABLE IF NOT EXISTS shop_order (id TEXT PRIMARY KEY)");
    return new Orders(jdbc, events, transactions);
  }
}
