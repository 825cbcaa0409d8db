package io.claimedoutbox.adapter.jpa;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;

/**
 * The JPA mapping of one outbox row. Kept inside the adapter: the domain never sees it. Add this
 * class to your persistence unit when you bring your own {@code EntityManagerFactory}.
 *
 * <p>{@code due_at} is derived state kept for the claim query: the available or retry time of
 * {@code PENDING}/{@code FAILED} rows, the lease end of {@code CLAIMED} rows, and {@code null} for
 * terminal rows, which therefore never appear in the due indexes' range. The indexes (partial on
 * PostgreSQL, over generated columns elsewhere) are more than a mapping can say: they come from the
 * migrations ({@link OutboxSchema}), which a schema generated from this class would lack. {@code revision} is the
 * {@code @Version} column: the store's own statements compare and raise it on every write, and a JPA provider
 * does the same for an application that updates a row through this mapping, so the two never overwrite each
 * other unseen.
 */
@Entity(name = "OutboxEntryRecord")
@Table(name = "outbox_entry")
public class OutboxEntryRecord {

  @Id
  @Column(name = "id", length = 64, nullable = false)
  String id;

  @Column(name = "topic", length = 255, nullable = false)
  String topic;

  @Column(name = "ordering_key", length = 255)
  String orderingKey;

  @Column(name = "payload", nullable = false, length = 1048576)
  byte[] payload;

  @Column(name = "headers", nullable = false, length = 1048576)
  String headers;

  @Column(name = "status", length = 16, nullable = false)
  String status;

  @Column(name = "attempts", nullable = false)
  int attempts;

  @Column(name = "created_at", nullable = false)
  Instant createdAt;

  @Column(name = "updated_at", nullable = false)
  Instant updatedAt;

  @Column(name = "available_at", nullable = false)
  Instant availableAt;

  @Column(name = "due_at")
  Instant dueAt;

  @Column(name = "claim_generation", nullable = false)
  long claimGeneration;

  @Column(name = "claim_owner", length = 128)
  String owner;

  @Column(name = "token_nonce", length = 36)
  String tokenNonce;

  @Column(name = "claimed_at")
  Instant claimedAt;

  @Column(name = "lease_until")
  Instant leaseUntil;

  @Column(name = "last_error", length = 2000)
  String lastError;

  @Column(name = "progress", length = 2000)
  String progress;

  @Column(name = "delivery_receipt", length = 2000)
  String deliveryReceipt;

  @Column(name = "write_stamp", length = 36)
  String writeStamp;

  @Version
  @Column(name = "revision", nullable = false)
  long revision;

  /** For JPA. */
  protected OutboxEntryRecord() {}
}
