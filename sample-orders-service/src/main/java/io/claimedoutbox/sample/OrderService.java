package io.claimedoutbox.sample;

import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.OutboxStore;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The business transaction: the order row and its event commit together, or neither does. */
@Service
public class OrderService {

  /** What placing an order produced. */
  public record Placed(String orderId, String eventId) {}

  private final OrderRepository orders;
  private final OutboxStore outbox;

  OrderService(OrderRepository orders, OutboxStore outbox) {
    this.orders = orders;
    this.outbox = outbox;
  }

  /**
   * @param customerId the customer
   * @param item what they ordered
   * @param quantity how many; checked after both writes, so a bad one rolls both back
   * @return the order and its event's outbox entry
   */
  @Transactional
  public Placed place(String customerId, String item, int quantity) {
    String id = UUID.randomUUID().toString();
    orders.save(new CustomerOrder(id, customerId, item, quantity));
    OutboxEntry event = outbox.append(OutboxMessage.of("orders.placed", json(id, customerId, item, quantity))
        .withHeader("content-type", "application/json").withOrderingKey(customerId));
    orders.flush();
    if (quantity <= 0) {
      throw new InvalidOrderException("quantity must be positive, was " + quantity);
    }
    return new Placed(id, event.id().value());
  }

  private static byte[] json(String id, String customerId, String item, int quantity) {
    return String.format("{\"orderId\":\"%s\",\"customerId\":\"%s\",\"item\":\"%s\",\"quantity\":%d}", id,
        customerId.replace("\"", ""), item.replace("\"", ""), quantity).getBytes(StandardCharsets.UTF_8);
  }

  /** A request the business rejects. */
  public static class InvalidOrderException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InvalidOrderException(String message) {
      super(message);
    }
  }
}
