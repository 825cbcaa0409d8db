package io.claimedoutbox.adapter.jpa;

import io.claimedoutbox.port.OutboxStoreException;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.OptimisticLockException;
import java.sql.SQLException;
import java.util.Set;
import java.util.function.Function;
import org.hibernate.StaleStateException;

/** Resource-local transactions of the store's own, and the classification of their failures. */
final class JpaTransactions {

  /**
   * SQL states that mean "the database rolled this transaction back because of a concurrent
   * writer": serialization failure, PostgreSQL deadlock, H2 concurrent update.
   */
  private static final Set<String> CONCURRENT_WRITER_STATES = Set.of("40001", "40P01", "90131");

  private final EntityManagerFactory factory;

  JpaTransactions(EntityManagerFactory factory) {
    this.factory = factory;
  }

  /** Runs {@code work} in a new transaction and commits; rolls back and rethrows on failure. */
  <T> T inTransaction(Function<EntityManager, T> work) {
    EntityManager em = open();
    EntityTransaction tx = em.getTransaction();
    try {
      tx.begin();
      T result = work.apply(em);
      tx.commit();
      return result;
    } catch (RuntimeException failure) {
      rollbackQuietly(tx);
      throw failure;
    } finally {
      em.close();
    }
  }

  EntityManager open() {
    try {
      return factory.createEntityManager();
    } catch (RuntimeException failure) {
      throw infrastructure("cannot open an EntityManager", failure);
    }
  }

  static void rollbackQuietly(EntityTransaction tx) {
    try {
      if (tx.isActive()) {
        tx.rollback();
      }
    } catch (RuntimeException ignored) {
      // the original failure is the one worth reporting
    }
  }

  /** Whether the failure means another writer won: the write did not happen. */
  static boolean isLostToConcurrentWriter(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof OptimisticLockException || cause instanceof StaleStateException) {
        return true;
      }
      if (cause instanceof SQLException sql && CONCURRENT_WRITER_STATES.contains(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }

  static RuntimeException infrastructure(String what, RuntimeException failure) {
    if (failure instanceof OutboxStoreException known) {
      return known;
    }
    return new OutboxStoreException("outbox store failed: " + what + ": " + failure.getMessage(), failure);
  }
}
