package io.claimedoutbox.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an application event type whose events go through the outbox: each one published with
 * Spring's {@code ApplicationEventPublisher} is appended when it is published — in the publisher's
 * transaction when there is one, so it is delivered exactly when that transaction commits — with its
 * payload written by the application's {@code PayloadCodec} bean ({@code outbox-jackson} provides
 * one). The drain then delivers it to the application's handler or the configured publisher.
 *
 * <p>For applications without Spring Modulith; with it, {@code outbox-spring-modulith} does the same
 * for Modulith's {@code @Externalized} events.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface OutboxEvent {

  /** @return the outbox topic; empty: the event type's simple name */
  String topic() default "";

  /**
   * @return a SpEL expression over the event giving its ordering key (for example {@code customerId}
   *     or {@code order.customer().id()}); empty: no ordering key
   */
  String orderingKey() default "";
}
