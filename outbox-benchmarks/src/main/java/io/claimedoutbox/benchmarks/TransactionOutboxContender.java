package io.claimedoutbox.benchmarks;

import com.gruelbox.transactionoutbox.Dialect;
import com.gruelbox.transactionoutbox.Instantiator;
import com.gruelbox.transactionoutbox.Persistor;
import com.gruelbox.transactionoutbox.Submitter;
import com.gruelbox.transactionoutbox.TransactionManager;
import com.gruelbox.transactionoutbox.TransactionOutbox;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * gruelbox transaction-outbox as its README shows it: entries scheduled through its proxy, drained
 * by calling {@code flush()} in a loop with a submitter of {@code workers} threads. The backlog is
 * scheduled with a clock an hour behind and a submitter that keeps nothing, so every entry waits
 * in the table, due, exactly as after a crash.
 */
final class TransactionOutboxContender implements Contender {

  /**
   * The method the outbox records and later invokes: public and not final, because the library
   * records calls through a generated subclass.
   */
  public static class Delivery {
    private volatile Handled current;

    /** @param id the entry's number */
    public void deliver(String id) {
      current.delivered(id);
    }
  }

  private final BenchDatabase database;
  private final Duration timeout;
  private final TransactionManager transactions;
  private final Delivery delivery = new Delivery();

  TransactionOutboxContender(BenchDatabase database, Duration timeout) throws Exception {
    this.database = database;
    this.timeout = timeout;
    database.execute("DROP TABLE IF EXISTS TXNO_OUTBOX");
    database.execute("DROP TABLE IF EXISTS TXNO_VERSION");
    this.transactions = TransactionManager.fromDataSource(database.dataSource());
  }

  private TransactionOutbox.TransactionOutboxBuilder outbox() {
    return TransactionOutbox.builder()
        .transactionManager(transactions)
        .persistor(Persistor.forDialect(Dialect.POSTGRESQL_9))
        .instantiator(Instantiator.using(type -> delivery));
  }

  @Override
  public String name() {
    return "transaction-outbox 4.2.268";
  }

  @Override
  public String backend() {
    return database.name();
  }

  @Override
  public void seed(int entries) throws Exception {
    TransactionOutbox seeding = outbox()
        .submitter((entry, process) -> { })
        .clockProvider(() -> Clock.offset(Clock.systemUTC(), Duration.ofHours(-1)))
        .build();
    database.execute("TRUNCATE TXNO_OUTBOX");
    database.execute("VACUUM ANALYZE TXNO_OUTBOX");
    for (int first = 0; first < entries; first += 1000) {
      int from = first;
      transactions.inTransaction(() -> {
        for (int i = from; i < Math.min(entries, from + 1000); i++) {
          seeding.schedule(Delivery.class).deliver(Integer.toString(i));
        }
      });
    }
  }

  @Override
  public void drain(int workers, Handled handled) throws Exception {
    delivery.current = handled;
    ExecutorService executor = Executors.newFixedThreadPool(workers);
    TransactionOutbox outbox = outbox().submitter(Submitter.withExecutor(executor)).build();
    long deadline = System.nanoTime() + timeout.toNanos();
    try {
      while (!handled.await(Duration.ZERO) && System.nanoTime() < deadline) {
        if (!outbox.flush()) {
          handled.await(Duration.ofMillis(20));
        }
      }
    } finally {
      executor.shutdown();
      executor.awaitTermination(1, TimeUnit.MINUTES);
    }
  }

  @Override
  public long undone() throws Exception {
    return database.count("SELECT COUNT(*) FROM TXNO_OUTBOX WHERE processed = false");
  }

  @Override
  public void close() throws Exception {
    database.execute("DROP TABLE IF EXISTS TXNO_OUTBOX");
    database.execute("DROP TABLE IF EXISTS TXNO_VERSION");
  }
}
