package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.StoreArguments;
import io.claimedoutbox.port.StoreCapability;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import java.util.List;

/**
 * The SQL store ({@link JdbcOutboxStore}) built from a Jakarta Persistence
 * {@link EntityManagerFactory}, the integration for applications on JPA: its connections are the
 * factory's (the application's pool), the database is the factory's dialect (no connection needed
 * to build), and appends can join the caller's {@link EntityManager} transaction
 * ({@link #appendWithin}). Applications that map or validate the table use {@link OutboxEntryRecord},
 * whose {@code @Version} is the same revision column every write raises.
 *
 * <p>Thread-safe, as the SQL store is.
 */
public final class JpaOutboxStore extends JdbcOutboxStore {

  private JpaOutboxStore(Builder<JpaOutboxStore> builder) {
    super(builder);
  }

  /**
   * Starts building a store over {@code factory}, whose persistence unit must manage
   * {@link OutboxEntryRecord} (see {@link JpaOutbox#entityManagerFactory}).
   *
   * @param factory the entity manager factory; the store does not close it
   * @return a builder with the system UTC clock and {@link ClaimLocking#AUTO}
   */
  public static Builder<JpaOutboxStore> builder(EntityManagerFactory factory) {
    Arguments.requireNonNull(factory, "factory");
    return new Builder<>(HibernateBridge.connections(factory), () -> HibernateBridge.dialect(factory),
        JpaOutboxStore::new);
  }

  /**
   * Appends within the caller's transaction, on its connection: the entries are written exactly
   * when the caller's business change commits, and not at all when it rolls back.
   *
   * <p>Drains of this store are told when that transaction commits, and not when it rolls back.
   * Since the store sees the outcome, a drain of this JVM with room may take an entry claimed on
   * append ({@link StoreCapability#CLAIM_ON_APPEND}): it is then handled right after the commit.
   *
   * @param em the caller's entity manager, in an active transaction
   * @param messages what to append
   * @return the entries as they will be stored once the caller commits
   * @throws IllegalStateException if {@code em} has no active transaction
   */
  public List<OutboxEntry> appendWithin(EntityManager em, List<OutboxMessage> messages) {
    Arguments.requireNonNull(em, "em");
    List<OutboxMessage> batch = StoreArguments.checkAppendAll(messages);
    if (!em.isJoinedToTransaction()) {
      throw new IllegalStateException("appendWithin needs an active transaction on em");
    }
    return appendJoined(new JoinedTransaction() {
      @Override
      public void run(JdbcAccess.Work<?> work) {
        EntityManagerConnection.run(em, work);
      }

      @Override
      public void onCompletion(Runnable committed, Runnable notCommitted) {
        HibernateBridge.afterCompletion(em, committed, notCommitted);
      }
    }, batch);
  }
}
