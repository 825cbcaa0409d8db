package io.claimedoutbox.spring.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The business row an order writes next to its outbox entry. */
@Entity
@Table(name = "placed_order")
public class PlacedOrder {

  @Id
  private String id;

  private int quantity;

  protected PlacedOrder() {}

  /**
   * @param id the order id
   * @param quantity how many
   */
  public PlacedOrder(String id, int quantity) {
    this.id = id;
    this.quantity = quantity;
  }

  /** @return the order id */
  public String getId() {
    return id;
  }

  /** @return how many */
  public int getQuantity() {
    return quantity;
  }
}
