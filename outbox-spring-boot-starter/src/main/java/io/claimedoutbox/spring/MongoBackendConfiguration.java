package io.claimedoutbox.spring;

import com.mongodb.client.MongoClient;
import io.claimedoutbox.adapter.mongodb.MongoOutboxStore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The MongoDB adapter on the application's {@code MongoClient}. Appends run on their own: joining a
 * Spring Data MongoDB transaction is not wired yet (pass the session to
 * {@code MongoOutboxStore.appendAll(ClientSession, …)} by hand for that).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({MongoOutboxStore.class, MongoClient.class})
@Conditional(BackendSelected.Mongo.class)
class MongoBackendConfiguration {

  @Bean
  @ConditionalOnMissingBean(OutboxBackend.class)
  OutboxBackend claimedOutboxBackend(MongoClient client, ClaimedOutboxProperties properties) {
    MongoOutboxStore.Builder builder = MongoOutboxStore.builder(client)
        .databaseName(properties.getMongodb().getDatabase()).collectionName(properties.getMongodb().getCollection());
    if (properties.isStoreTime()) {
      builder.storeTime();
    }
    MongoOutboxStore store = builder.build();
    store.createIndexes();
    return new OutboxBackend("mongodb", store, store, ClaimedOutboxStore.TransactionalAppend.NONE);
  }
}
