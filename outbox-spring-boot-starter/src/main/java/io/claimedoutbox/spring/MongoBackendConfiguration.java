package io.claimedoutbox.spring;

import io.claimedoutbox.domain.OutboxEntry;
import java.util.List;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import com.mongodb.client.MongoClient;
import com.mongodb.client.MongoDatabase;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.mongodb.MongoDatabaseFactory;
import org.springframework.data.mongodb.MongoDatabaseUtils;
import org.springframework.data.mongodb.SessionSynchronization;

/**
 * The MongoDB adapter on the application's {@code MongoClient}. With Spring Data MongoDB, an append
 * inside a transaction of its {@code MongoTransactionManager} goes through the session-bound
 * database Spring Data hands out for that transaction ({@link MongoOutboxStore#appendThrough}), so
 * it commits or aborts with the caller's writes; otherwise it runs on its own.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({MongoOutboxStore.class, MongoClient.class})
@Conditional(BackendSelected.Mongo.class)
@Import(MongoBackendConfiguration.SpringDataSessions.class)
class MongoBackendConfiguration {

  /** Where an append finds the database handle of the Spring transaction on its thread. */
  @FunctionalInterface
  interface TransactionDatabase {
    /**
     * @param name the store's database
     * @return the handle bound to the active transaction, empty without one
     */
    Optional<MongoDatabase> ofCurrentTransaction(String name);
  }

  @Bean
  @ConditionalOnMissingBean(OutboxBackend.class)
  OutboxBackend claimedOutboxBackend(MongoClient client, ClaimedOutboxProperties properties,
      ObjectProvider<TransactionDatabase> transactions) {
    String database = properties.getMongodb().getDatabase();
    MongoOutboxStore.Builder builder = MongoOutboxStore.builder(client)
        .databaseName(database).collectionName(properties.getMongodb().getCollection());
    if (properties.isStoreTime()) {
      builder.storeTime();
    }
    MongoOutboxStore store = builder.build();
    store.createIndexes();
    TransactionDatabase transaction = transactions.getIfAvailable(() -> name -> Optional.empty());
    return new OutboxBackend("mongodb", store, store, messages -> transaction.ofCurrentTransaction(database)
        .map(handle -> {
          List<OutboxEntry> appended = store.appendThrough(handle, messages);
          TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
            @Override
            public void afterCommit() {
              store.entriesCommitted();
            }
          });
          return appended;
        }));
  }

  /** Spring Data MongoDB's transactions, when the application has them. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(MongoDatabaseUtils.class)
  static class SpringDataSessions {
    @Bean
    @ConditionalOnBean(MongoDatabaseFactory.class)
    TransactionDatabase claimedOutboxMongoTransactions(MongoDatabaseFactory factory) {
      return name -> MongoDatabaseUtils.isTransactionActive(factory)
          ? Optional.of(MongoDatabaseUtils.getDatabase(name, factory, SessionSynchronization.ON_ACTUAL_TRANSACTION))
          : Optional.empty();
    }
  }
}
