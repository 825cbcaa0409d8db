package io.claimedoutbox.benchmarks.latency;

import com.gruelbox.transactionoutbox.Dialect;
import com.gruelbox.transactionoutbox.Instantiator;
import com.gruelbox.transactionoutbox.Persistor;
import com.gruelbox.transactionoutbox.Submitter;
import com.gruelbox.transactionoutbox.ThreadLocalContextTransactionManager;
import com.gruelbox.transactionoutbox.TransactionManager;
import com.gruelbox.transactionoutbox.TransactionOutbox;
import io.claimedoutbox.benchmarks.BenchDatabase;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * gruelbox transaction-outbox as its README wires it: {@code schedule} inside the business
 * transaction, its default submitter running the call on an executor right after the commit, and
 * the {@code flush()} a user schedules (every second here) for what the submitter missed.
 */
final class TransactionOutboxSystem implements LatencySystem {

  /** The method the outbox records and invokes after the commit. */
  public static class Delivery {
    private volatile Recording recording;

    /** @param sequence the entry's number */
    public void deliver(Long sequence) {
      recording.handlerStarted(sequence);
    }
  }

  private final BenchDatabase database;
  private final ThreadLocalContextTransactionManager transactions;
  private final Delivery delivery = new Delivery();
  private TransactionOutbox outbox;
  private ExecutorService executor;
  private ScheduledExecutorService flusher;

  TransactionOutboxSystem(BenchDatabase database) throws Exception {
    this.database = database;
    database.execute("DROP TABLE IF EXISTS TXNO_OUTBOX");
    database.execute("DROP TABLE IF EXISTS TXNO_VERSION");
    this.transactions = TransactionManager.fromDataSource(database.dataSource());
  }

  @Override
  public java.time.Duration pollInterval() {
    return java.time.Duration.ofSeconds(1);
  }

  @Override
  public String name() {
    return "transaction-outbox 4.2.268 (after-commit submit + flush every 1 s)";
  }

  @Override
  public void start(Recording recording) throws Exception {
    delivery.recording = recording;
    executor = Executors.newFixedThreadPool(4);
    outbox = TransactionOutbox.builder()
        .transactionManager(transactions)
        .persistor(Persistor.forDialect(database.isPostgreSql() ? Dialect.POSTGRESQL_9 : Dialect.MY_SQL_8))
        .instantiator(Instantiator.using(type -> delivery))
        .submitter(Submitter.withExecutor(executor))
        .build();
    // creates its tables before the first measured transaction
    outbox.flush();
    database.execute("DELETE FROM TXNO_OUTBOX");
    flusher = Executors.newSingleThreadScheduledExecutor();
    flusher.scheduleWithFixedDelay(() -> {
      try {
        outbox.flush();
      } catch (RuntimeException ignored) {
        // a failed flush is retried at the next tick, as in an application
      }
    }, 1, 1, TimeUnit.SECONDS);
  }

  @Override
  public void produce(long sequence) throws Exception {
    transactions.inTransactionThrows(transaction -> {
      BusinessTable.insert(transaction.connection(), sequence);
      outbox.schedule(Delivery.class).deliver(sequence);
    });
  }

  @Override
  public void stop() throws Exception {
    if (flusher != null) {
      flusher.shutdownNow();
      flusher.awaitTermination(10, TimeUnit.SECONDS);
      // submits still queued from a row it fell behind in are dropped, not run during the next row
      executor.shutdownNow();
      executor.awaitTermination(30, TimeUnit.SECONDS);
      flusher = null;
      database.execute("DELETE FROM TXNO_OUTBOX");
    }
  }

  @Override
  public void close() throws Exception {
    stop();
    database.execute("DROP TABLE IF EXISTS TXNO_OUTBOX");
    database.execute("DROP TABLE IF EXISTS TXNO_VERSION");
  }
}
