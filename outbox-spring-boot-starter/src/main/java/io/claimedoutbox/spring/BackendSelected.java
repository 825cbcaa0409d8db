package io.claimedoutbox.spring;

import java.util.Locale;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code claimed-outbox.backend} names this condition's backend, or is {@code auto}
 * (or unset) and the application has what the backend needs: the JPA configuration's own bean
 * condition decides for JPA; Redis needs {@code claimed-outbox.redis.url} or a Jedis client bean;
 * MongoDB a {@code MongoClient} bean.
 */
abstract class BackendSelected extends SpringBootCondition {

  private final ClaimedOutboxProperties.Backend backend;
  private final String clientType;

  BackendSelected(ClaimedOutboxProperties.Backend backend, String clientType) {
    this.backend = backend;
    this.clientType = clientType;
  }

  @Override
  public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
    String chosen = context.getEnvironment().getProperty("claimed-outbox.backend", "auto").strip()
        .toUpperCase(Locale.ROOT);
    if (chosen.equals(backend.name())) {
      return ConditionOutcome.match("claimed-outbox.backend is " + backend);
    }
    if (!chosen.equals(ClaimedOutboxProperties.Backend.AUTO.name())) {
      return ConditionOutcome.noMatch("claimed-outbox.backend is " + chosen);
    }
    return autoMatch(context);
  }

  private ConditionOutcome autoMatch(ConditionContext context) {
    if (clientType == null) {
      return ConditionOutcome.match("auto: decided by the configuration's bean condition");
    }
    if (backend == ClaimedOutboxProperties.Backend.REDIS
        && context.getEnvironment().containsProperty("claimed-outbox.redis.url")) {
      return ConditionOutcome.match("auto: claimed-outbox.redis.url is set");
    }
    try {
      Class<?> type = Class.forName(clientType, false, context.getClassLoader());
      boolean present = context.getBeanFactory() != null && context.getBeanFactory().getBeanNamesForType(type).length > 0;
      return present ? ConditionOutcome.match("auto: a " + type.getSimpleName() + " bean exists")
          : ConditionOutcome.noMatch("auto: no " + type.getSimpleName() + " bean");
    } catch (ClassNotFoundException absent) {
      return ConditionOutcome.noMatch("auto: " + clientType + " is not on the classpath");
    }
  }

  /** The JPA backend. */
  static final class Jpa extends BackendSelected {
    Jpa() {
      super(ClaimedOutboxProperties.Backend.JPA, null);
    }
  }

  /** The SQL store on a plain DataSource: its configuration's bean conditions decide, after every other backend's. */
  static final class Jdbc extends BackendSelected {
    Jdbc() {
      super(ClaimedOutboxProperties.Backend.JDBC, null);
    }
  }

  /** The Redis backend. */
  static final class Redis extends BackendSelected {
    Redis() {
      super(ClaimedOutboxProperties.Backend.REDIS, "redis.clients.jedis.UnifiedJedis");
    }
  }

  /** The MongoDB backend. */
  static final class Mongo extends BackendSelected {
    Mongo() {
      super(ClaimedOutboxProperties.Backend.MONGODB, "com.mongodb.client.MongoClient");
    }
  }
}
