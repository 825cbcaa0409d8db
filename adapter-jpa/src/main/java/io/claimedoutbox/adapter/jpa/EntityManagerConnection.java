package io.claimedoutbox.adapter.jpa;

import jakarta.persistence.EntityManager;
import java.sql.Connection;

/**
 * JDBC work on the connection under the caller's {@link EntityManager}, inside its transaction:
 * through Jakarta Persistence 3.2's {@code runWithConnection}, which every 3.2 provider implements,
 * and through Hibernate's own session API where the provider predates 3.2 (Hibernate 6.6 under Spring
 * Boot 3.5 implements 3.1).
 */
final class EntityManagerConnection {

  /** Whether the Jakarta Persistence API on the class path has {@code runWithConnection} (3.2 on). */
  private static final boolean PERSISTENCE_3_2 = hasRunWithConnection();

  private EntityManagerConnection() {}

  /** Runs {@code work} on the connection of {@code em}'s transaction. */
  static void run(EntityManager em, JdbcAccess.Work<?> work) {
    if (PERSISTENCE_3_2) {
      Persistence32.run(em, work);
    } else {
      HibernateBridge.onSessionConnection(em, work);
    }
  }

  private static boolean hasRunWithConnection() {
    try {
      Class<?> consumer = Class.forName("jakarta.persistence.ConnectionConsumer", false,
          EntityManager.class.getClassLoader());
      EntityManager.class.getMethod("runWithConnection", consumer);
      return true;
    } catch (ClassNotFoundException | NoSuchMethodException | LinkageError absent) {
      return false;
    }
  }

  /** The 3.2 call, in a class of its own: loaded only when its API types exist. */
  private static final class Persistence32 {
    private Persistence32() {}

    static void run(EntityManager em, JdbcAccess.Work<?> work) {
      em.runWithConnection((Connection connection) -> work.run(connection));
    }
  }
}
