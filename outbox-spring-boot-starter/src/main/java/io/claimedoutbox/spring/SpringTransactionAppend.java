package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.PendingAppend;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import java.sql.Connection;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Appends inside the Spring transaction active on the calling thread, on the JDBC connection that
 * transaction holds for the application's {@code DataSource}: the one a {@code JpaTransactionManager}
 * exposes for its {@code EntityManager}, a {@code DataSourceTransactionManager} opened for
 * {@code JdbcTemplate} or jOOQ. The connection is asked of {@link DataSourceUtils}, never of an
 * {@code EntityManager}, so an open-in-view {@code EntityManager} bound to the request (Boot's
 * default) cannot hide the transaction. Without an active transaction the store appends on its own;
 * inside one that holds no connection of that {@code DataSource} (another resource's transaction)
 * the append is refused rather than committed outside it. The append is a
 * {@link JdbcOutboxStore#beginAppendOn}: a drain of this JVM with room takes an entry claimed on
 * append and handles it as soon as the transaction has committed; a rollback gives that room back.
 */
final class SpringTransactionAppend implements ClaimedOutboxStore.TransactionalAppend {

  private final JdbcOutboxStore store;
  private final DataSource dataSource;

  SpringTransactionAppend(JdbcOutboxStore store, DataSource dataSource) {
    this.store = store;
    this.dataSource = dataSource;
  }

  @Override
  public Optional<List<OutboxEntry>> appendInCurrentTransaction(List<OutboxMessage> messages) {
    if (dataSource == null || !TransactionSynchronizationManager.isActualTransactionActive()) {
      return Optional.empty();
    }
    if (!TransactionSynchronizationManager.hasResource(dataSource)) {
      // committing on its own here would silently leave the caller's transaction: say so instead
      throw new IllegalStateException("Claimed Outbox: an append inside a transaction that holds no connection of the"
          + " outbox's DataSource (a transaction manager for another resource); append outside it, or run it under a"
          + " JpaTransactionManager or DataSourceTransactionManager of that DataSource");
    }
    Connection connection = DataSourceUtils.getConnection(dataSource);
    PendingAppend appended;
    try {
      appended = store.beginAppendOn(connection, messages);
    } finally {
      DataSourceUtils.releaseConnection(connection, dataSource);
    }
    TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
      @Override
      public void afterCompletion(int status) {
        if (status == STATUS_COMMITTED) {
          appended.committed();
        } else {
          appended.rolledBack();
        }
      }
    });
    return Optional.of(appended.entries());
  }
}
