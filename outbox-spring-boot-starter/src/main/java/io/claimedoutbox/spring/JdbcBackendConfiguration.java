package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.jpa.JdbcOutboxStore;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * The SQL store on the application's {@code DataSource}, for applications without JPA
 * ({@code JdbcTemplate}, jOOQ, MyBatis): no JPA provider is needed. An append joins the Spring
 * transaction active on the calling thread through that transaction's own JDBC connection
 * ({@link SpringTransactionAppend}), as with the JPA backend. Chosen automatically last, when no
 * other backend is: an application with an {@code EntityManagerFactory} gets the JPA backend, one that
 * configures Redis or MongoDB gets that.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({JdbcOutboxStore.class, DataSourceUtils.class})
@ConditionalOnBean(DataSource.class)
@Conditional(BackendSelected.Jdbc.class)
class JdbcBackendConfiguration {

  @Bean
  @ConditionalOnMissingBean(OutboxBackend.class)
  OutboxBackend claimedOutboxBackend(DataSource dataSource, ClaimedOutboxProperties properties) {
    JdbcOutboxStore.Builder<JdbcOutboxStore> builder = JdbcOutboxStore.builder(dataSource)
        .database(OutboxSqlSchema.prepare(dataSource, properties.getSchema()));
    if (properties.isStoreTime()) {
      builder.storeTime();
    }
    JdbcOutboxStore store = builder.build();
    return new OutboxBackend("jdbc", store, store, new SpringTransactionAppend(store, dataSource));
  }
}
