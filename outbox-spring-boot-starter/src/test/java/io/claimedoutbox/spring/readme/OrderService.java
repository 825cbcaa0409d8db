package io.claimedoutbox.spring.readme;

import io.claimedoutbox.spring.OutboxEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
public class OrderService {

  @OutboxEvent(topic = "orders.placed", orderingKey = "customerId()")   // through the outbox, keyed by customer
  public record OrderPlaced(String orderId, String customerId) {}

  private final JdbcTemplate jdbc;                                      // or a JPA repository, jOOQ, MyBatis
  private final ApplicationEventPublisher events;

  public OrderService(JdbcTemplate jdbc, ApplicationEventPublisher events) {
    this.jdbc = jdbc;
    this.events = events;
  }

  @Transactional                                                        // the order and its event commit together
  public void place(String orderId, String customerId) {
    jdbc.update("INSERT INTO orders (id, customer_id) VALUES (?, ?)", orderId, customerId);
    events.publishEvent(new OrderPlaced(orderId, customerId));
  }
}
