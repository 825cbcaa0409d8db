package io.claimedoutbox.spring;

import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.drain.OutboxDrain;
import io.claimedoutbox.drain.OutboxMessageHandler;
import io.claimedoutbox.drain.OutboxRetention;
import io.claimedoutbox.drain.RetryPolicy;
import io.claimedoutbox.micrometer.BacklogReader;
import io.claimedoutbox.micrometer.BacklogGauges;
import io.claimedoutbox.micrometer.DrainMeters;
import io.claimedoutbox.micrometer.OutboxMeterNames;
import io.claimedoutbox.micrometer.OutboxStoreMeters;
import io.claimedoutbox.micrometer.OutboxStoreObservations;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.tracing.TracedHandler;
import io.claimedoutbox.tracing.TracedMessages;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import java.net.InetAddress;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * Claimed Outbox for Spring Boot 4: one {@link ClaimedOutboxStore} bean on the backend the
 * application has (see {@link ClaimedOutboxProperties.Backend}), the drain and retention as
 * lifecycle beans, metrics and observations when their registries exist, a health indicator when
 * Actuator's health is present, trace context when a tracer is, a payload codec over the
 * application's Jackson mapper when {@code outbox-jackson} is present.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
    "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
    // Spring Boot 3's name, so that on Boot 3 the version check below is what stops the start.
    "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
    "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
    "org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration",
    "org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
    "org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration",
    "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
    "org.springframework.boot.jackson2.autoconfigure.Jackson2AutoConfiguration"})
@EnableConfigurationProperties(ClaimedOutboxProperties.class)
@Import({JpaBackendConfiguration.class, RedisBackendConfiguration.class, MongoBackendConfiguration.class,
    JdbcBackendConfiguration.class,
    ClaimedOutboxAutoConfiguration.Tracing.class, ClaimedOutboxAutoConfiguration.HealthConfiguration.class,
    JacksonPayloadConfiguration.class, PublisherConfiguration.class})
public class ClaimedOutboxAutoConfiguration {

  /**
   * The store, observed through listeners of the backend's store itself (so it keeps every
   * capability it has): when an {@code ObservationRegistry} exists, each transition call is an
   * observation ({@link OutboxStoreObservations}: a span, and the call's one timer through Boot's
   * meter handler); when a {@code MeterRegistry} exists, attempts by outcome, claims and appends
   * ({@link OutboxStoreMeters}) and the backlog gauges, all under
   * {@code claimed-outbox.metrics-prefix}.
   *
   * @param backend the backend's store
   * @param backlog the backlog reader the gauges share with the health check
   * @param properties the settings
   * @param meters the application's meter registry, if any
   * @param observations the application's observation registry, if any
   * @param tracing trace context, if a tracer exists
   * @return the one store bean
   */
  @Bean
  @ConditionalOnMissingBean(OutboxClaimOutcomeStore.class)
  public ClaimedOutboxStore claimedOutboxStore(ObjectProvider<OutboxBackend> backend, BacklogReader backlog,
      ClaimedOutboxProperties properties, ObjectProvider<MeterRegistry> meters,
      ObjectProvider<ObservationRegistry> observations, ObjectProvider<OutboxTracing> tracing) {
    OutboxBackend chosen = chosen(backend);
    OutboxClaimOutcomeStore store = chosen.store();
    OutboxMeterNames names = meterNames(properties);
    ObservationRegistry observationRegistry = observations.getIfAvailable();
    boolean observed = observationRegistry != null && !observationRegistry.isNoop();
    if (observed) {
      store.listen(OutboxStoreObservations.of(observationRegistry, names));
    }
    MeterRegistry registry = meters.getIfAvailable();
    if (registry != null) {
      OutboxStoreMeters.Builder storeMeters = OutboxStoreMeters.builder(registry).names(names);
      store.listen((observed ? storeMeters.timedByObservation() : storeMeters).build());
      BacklogGauges.register(backlog, registry, names);
    }
    return new ClaimedOutboxStore(store, chosen.operations(), chosen.transactionalAppend(),
        tracing.getIfAvailable(() -> OutboxTracing.NONE).onAppend());
  }

  private static OutboxMeterNames meterNames(ClaimedOutboxProperties properties) {
    String prefix = properties.getMetricsPrefix();
    try {
      return "outbox".equals(prefix) ? OutboxMeterNames.defaults() : OutboxMeterNames.withPrefix(prefix);
    } catch (IllegalArgumentException | NullPointerException bad) {
      throw new OutboxStartupException("claimed-outbox.metrics-prefix is not usable: " + bad.getMessage());
    }
  }

  /**
   * @param backend the backend's store
   * @param properties the settings
   * @return the backlog reader the gauges and the health check share
   */
  @Bean
  public BacklogReader claimedOutboxBacklog(ObjectProvider<OutboxBackend> backend, ClaimedOutboxProperties properties) {
    return BacklogReader.of(chosen(backend).operations(), properties.getBacklogRefresh(), Clock.systemUTC());
  }

  private static OutboxBackend chosen(ObjectProvider<OutboxBackend> backend) {
    return backend.getIfAvailable(() -> {
      throw new OutboxStartupException("Claimed Outbox found no backend: add adapter-jpa with a DataSource"
          + " (spring-boot-starter-jdbc, or spring-boot-starter-data-jpa for JPA), set claimed-outbox.redis.url (with"
          + " adapter-redis), or provide a MongoClient (with adapter-mongodb); or name one with claimed-outbox.backend");
    });
  }

  /**
   * @param store the store
   * @param beans where the application's handler is
   * @param properties the settings
   * @param tracing trace context, if a tracer exists
   * @return the drain, started after the context
   */
  @Bean
  @ConditionalOnBean(OutboxMessageHandler.class)
  @ConditionalOnProperty(name = "claimed-outbox.drain.enabled", matchIfMissing = true)
  public OutboxDrainLifecycle claimedOutboxDrain(ClaimedOutboxStore store, ListableBeanFactory beans,
      ClaimedOutboxProperties properties, ObjectProvider<OutboxTracing> tracing, ObjectProvider<MeterRegistry> meters) {
    ClaimedOutboxProperties.Drain settings = properties.getDrain();
    OutboxMessageHandler handler = DrainHandler.choose(beans, settings.getHandler());
    OutboxDrain drain = OutboxDrain.builder(store, tracing.getIfAvailable(() -> OutboxTracing.NONE).aroundHandler()
            .apply(handler))
        .workerId(WorkerId.of(settings.getWorkerId() != null ? settings.getWorkerId() : defaultWorkerId()))
        .concurrency(settings.getConcurrency())
        .batchSize(settings.getBatchSize())
        .lease(settings.getLease())
        .shutdownTimeout(settings.getShutdownTimeout())
        .retryPolicy(RetryPolicy.builder().initialBackoff(settings.getInitialBackoff())
            .maxBackoff(settings.getMaxBackoff()).maxAttempts(settings.getMaxAttempts()).build())
        .build();
    meters.ifAvailable(registry -> DrainMeters.bind(drain, registry, meterNames(properties)));
    return new OutboxDrainLifecycle(drain, settings.getShutdownTimeout());
  }

  /**
   * @param store the store
   * @param properties the settings
   * @return the retention job, run from the context's start to its stop
   */
  @Bean
  @ConditionalOnProperty(name = "claimed-outbox.retention.enabled", matchIfMissing = true)
  public OutboxRetentionLifecycle claimedOutboxRetention(ClaimedOutboxStore store, ClaimedOutboxProperties properties) {
    ClaimedOutboxProperties.Retention settings = properties.getRetention();
    return new OutboxRetentionLifecycle(OutboxRetention.builder(store).keepFinishedFor(settings.getKeepFinishedFor())
        .batchSize(settings.getBatchSize()).every(settings.getEvery()).build());
  }

  /**
   * Appends published events whose type carries {@link OutboxEvent}, in the publisher's transaction.
   *
   * @param store the store
   * @param codec the payload codec the events are written with
   * @return the listener
   */
  @Bean
  @ConditionalOnProperty(name = "claimed-outbox.events.enabled", matchIfMissing = true)
  OutboxEventBridge claimedOutboxEventBridge(ClaimedOutboxStore store, ObjectProvider<PayloadCodec> codec) {
    return new OutboxEventBridge(store, codec);
  }

  private static String defaultWorkerId() {
    String host;
    try {
      host = InetAddress.getLocalHost().getHostName().replaceAll("[^A-Za-z0-9._:-]", "-");
    } catch (java.io.IOException unknown) {
      host = "worker";
    }
    return host + "-" + UUID.randomUUID().toString().substring(0, 8);
  }

  /** Trace context, when Micrometer Tracing and outbox-tracing are on the classpath and a tracer exists. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({Tracer.class, TracedHandler.class})
  static class Tracing {
    @Bean
    @ConditionalOnBean(Tracer.class)
    OutboxTracing claimedOutboxTracing(Tracer tracer) {
      return new OutboxTracing(message -> TracedMessages.withCurrentTrace(message, tracer),
          handler -> TracedHandler.of(handler, tracer));
    }
  }

  /** The health indicator, when Actuator's health module is on the classpath. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.AbstractHealthIndicator")
  static class HealthConfiguration {
    @Bean(name = "outboxHealthIndicator")
    @ConditionalOnMissingBean(name = "outboxHealthIndicator")
    OutboxHealthIndicator outboxHealthIndicator(BacklogReader backlog, OutboxBackend backend,
        ClaimedOutboxProperties properties, ObjectProvider<OutboxDrainLifecycle> drain) {
      return new OutboxHealthIndicator(backlog, backend.name(), properties.getHealth().getMaxOldestDueAge(),
          () -> Optional.ofNullable(drain.getIfAvailable()).map(lifecycle -> lifecycle.drain().stats()));
    }
  }
}
