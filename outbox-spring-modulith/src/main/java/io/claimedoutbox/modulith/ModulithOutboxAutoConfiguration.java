package io.claimedoutbox.modulith;

import io.claimedoutbox.port.OutboxStore;
import io.claimedoutbox.port.payload.PayloadCodec;
import io.claimedoutbox.spring.ClaimedOutboxAutoConfiguration;
import io.claimedoutbox.spring.OutboxStartupException;
import java.util.List;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.modulith.events.EventExternalizationConfiguration;

/**
 * Claimed Outbox as a Spring Modulith application's outbox for externalized events. Without an
 * {@link EventExternalizationConfiguration} bean of the application's, Modulith's defaults apply:
 * events in the application's packages annotated {@code @Externalized}, routed by the annotation.
 * Do not add one of Modulith's own broker modules ({@code spring-modulith-events-amqp},
 * {@code -kafka}…) next to this one: both would send each event.
 */
@AutoConfiguration(after = ClaimedOutboxAutoConfiguration.class,
    afterName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass(EventExternalizationConfiguration.class)
@ConditionalOnBean(OutboxStore.class)
@ConditionalOnProperty(name = "claimed-outbox.modulith.enabled", matchIfMissing = true)
public class ModulithOutboxAutoConfiguration {

  /**
   * Modulith's default selection and routing, over the application's packages.
   *
   * @param beans where the application's packages are recorded
   * @return the configuration
   */
  @Bean
  @ConditionalOnMissingBean
  public EventExternalizationConfiguration claimedOutboxEventExternalization(BeanFactory beans) {
    List<String> packages = AutoConfigurationPackages.has(beans) ? AutoConfigurationPackages.get(beans) : List.of();
    return EventExternalizationConfiguration.defaults(packages).build();
  }

  /**
   * @param store the outbox
   * @param codec the payload codec events are written with
   * @param configuration which events go out, where, and as what
   * @return the listener that appends them
   */
  @Bean
  ExternalizedEventAppender claimedOutboxExternalizedEvents(OutboxStore store, ObjectProvider<PayloadCodec> codec,
      EventExternalizationConfiguration configuration) {
    PayloadCodec payloads = codec.getIfAvailable(() -> {
      throw new OutboxStartupException("Claimed Outbox: Spring Modulith's externalized events need a PayloadCodec bean"
          + " to write them: add io.claimedoutbox:outbox-jackson and"
          + " spring-boot-starter-jackson (the codec uses Boot's Jackson mapper) or declare a PayloadCodec bean");
    });
    return new ExternalizedEventAppender(store, payloads, configuration);
  }
}
