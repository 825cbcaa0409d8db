package io.claimedoutbox.spring;

import io.claimedoutbox.jackson.Jackson3PayloadCodec;
import io.claimedoutbox.jackson.JacksonPayloadCodec;
import io.claimedoutbox.port.payload.PayloadCodec;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * A {@link PayloadCodec} bean over the application's own Jackson mapper, when {@code outbox-jackson}
 * is on the classpath: Jackson 3's {@code JsonMapper} (Spring Boot 4's default, with every
 * {@code spring.jackson.*} setting) first, else a Jackson 2 {@code ObjectMapper} bean. Applications
 * inject it to append with {@code TypedMessages} and to read with {@code TypedHandler}; a
 * {@code PayloadCodec} bean of their own replaces it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.claimedoutbox.jackson.Jackson3PayloadCodec")
@Import({JacksonPayloadConfiguration.Jackson3.class, JacksonPayloadConfiguration.Jackson2.class})
class JacksonPayloadConfiguration {

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "tools.jackson.databind.json.JsonMapper")
  static class Jackson3 {
    @Bean
    @ConditionalOnMissingBean(PayloadCodec.class)
    @ConditionalOnBean(tools.jackson.databind.json.JsonMapper.class)
    PayloadCodec outboxPayloadCodec(tools.jackson.databind.json.JsonMapper mapper) {
      return Jackson3PayloadCodec.using(mapper);
    }
  }

  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "com.fasterxml.jackson.databind.ObjectMapper")
  static class Jackson2 {
    @Bean
    @ConditionalOnMissingBean(PayloadCodec.class)
    @ConditionalOnBean(com.fasterxml.jackson.databind.ObjectMapper.class)
    PayloadCodec outboxPayloadCodec(com.fasterxml.jackson.databind.ObjectMapper mapper) {
      return JacksonPayloadCodec.using(mapper);
    }
  }
}
