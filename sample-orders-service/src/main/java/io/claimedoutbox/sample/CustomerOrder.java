package io.claimedoutbox.sample;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order, as the business stores it. */
@Entity
@Table(name = "customer_order")
public class CustomerOrder {

  @Id
  private String id;

  @Column(name = "customer_id")
  private String customerId;

  private String item;

  private int quantity;

  protected CustomerOrder() {}

  CustomerOrder(String id, String customerId, String item, int quantity) {
    this.id = id;
    this.customerId = customerId;
    this.item = item;
    this.quantity = quantity;
  }

  /** @return the order id */
  public String getId() {
    return id;
  }

  /** @return the customer */
  public String getCustomerId() {
    return customerId;
  }
}
