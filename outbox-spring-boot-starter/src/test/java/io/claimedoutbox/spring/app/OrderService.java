package io.claimedoutbox.spring.app;

import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.OutboxStore;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import java.nio.charset.StandardCharsets;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Places an order and appends its event in one transaction. */
@Service
public class OrderService {

  @PersistenceContext
  private EntityManager entityManager;

  private final OutboxStore outbox;

  OrderService(OutboxStore outbox) {
    this.outbox = outbox;
  }

  /**
   * @param id the order id
   * @param quantity how many; 0 or less fails after both writes, rolling both back
   */
  @Transactional
  public void place(String id, int quantity) {
    entityManager.persist(new PlacedOrder(id, quantity));
    outbox.append(OutboxMessage.of("orders.placed", ("{\"order\":\"" + id + "\"}").getBytes(StandardCharsets.UTF_8))
        .withOrderingKey(id));
    entityManager.flush();
    if (quantity <= 0) {
      throw new IllegalArgumentException("quantity must be positive");
    }
  }
}
