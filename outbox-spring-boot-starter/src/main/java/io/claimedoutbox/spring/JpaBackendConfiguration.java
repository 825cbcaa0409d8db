package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import io.claimedoutbox.adapter.jpa.JpaOutboxStore;
import jakarta.persistence.EntityManagerFactory;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.orm.jpa.SharedEntityManagerCreator;

/**
 * The JPA adapter on the application's own {@code EntityManagerFactory} (Boot's). The outbox's SQL
 * runs on its connections; no entity needs scanning. An append joins the Spring transaction active on
 * the calling thread through that transaction's own JDBC connection ({@link SpringTransactionAppend}),
 * whatever {@code spring.jpa.open-in-view} says.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({JpaOutboxStore.class, EntityManagerFactory.class, SharedEntityManagerCreator.class})
@ConditionalOnBean(EntityManagerFactory.class)
@Conditional(BackendSelected.Jpa.class)
class JpaBackendConfiguration {

  @Bean
  @ConditionalOnMissingBean(OutboxBackend.class)
  OutboxBackend claimedOutboxBackend(EntityManagerFactory factory, ObjectProvider<DataSource> dataSource,
      ClaimedOutboxProperties properties) {
    HibernateVersionCheck.requireSupported();
    OutboxSqlSchema.prepare(dataSource.getIfAvailable(), properties.getSchema());
    JdbcOutboxStore.Builder<JpaOutboxStore> builder = JpaOutboxStore.builder(factory);
    if (properties.isStoreTime()) {
      builder.storeTime();
    }
    JpaOutboxStore store = builder.build();
    return new OutboxBackend("jpa", store, store, new SpringTransactionAppend(store, dataSource.getIfAvailable()));
  }
}
