package io.claimedoutbox.spring;

import io.claimedoutbox.adapter.redis.RedisOutboxStore;
import java.net.URI;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.UnifiedJedis;

/**
 * The Redis adapter on the application's {@code UnifiedJedis} bean, or on a pool the starter opens
 * from {@code claimed-outbox.redis.url} (and closes with the context). Redis appends cannot join a
 * database transaction: they run on their own.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass({RedisOutboxStore.class, UnifiedJedis.class})
@Conditional(BackendSelected.Redis.class)
class RedisBackendConfiguration {

  /** A pool the starter opened, closed with the context. */
  record OwnedJedis(JedisPooled client) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
    }
  }

  @Bean
  @ConditionalOnMissingBean({UnifiedJedis.class, OwnedJedis.class})
  OwnedJedis claimedOutboxJedis(ClaimedOutboxProperties properties) {
    String url = properties.getRedis().getUrl();
    if (url == null || url.isBlank()) {
      throw new OutboxStartupException("Claimed Outbox on Redis needs claimed-outbox.redis.url (redis://host:port)"
          + " or a UnifiedJedis bean");
    }
    return new OwnedJedis(new JedisPooled(URI.create(url)));
  }

  @Bean
  @ConditionalOnMissingBean(OutboxBackend.class)
  OutboxBackend claimedOutboxBackend(ObjectProvider<UnifiedJedis> applicationClient, ObjectProvider<OwnedJedis> owned,
      ClaimedOutboxProperties properties) {
    UnifiedJedis client = applicationClient.getIfAvailable(() -> owned.getObject().client());
    RedisOutboxStore.Builder builder = RedisOutboxStore.builder(client)
        .keyPrefix(properties.getRedis().getKeyPrefix()).shards(properties.getRedis().getShards());
    if (properties.isStoreTime()) {
      builder.storeTime();
    }
    RedisOutboxStore store = builder.build();
    return new OutboxBackend("redis", store, store, ClaimedOutboxStore.TransactionalAppend.NONE);
  }
}
