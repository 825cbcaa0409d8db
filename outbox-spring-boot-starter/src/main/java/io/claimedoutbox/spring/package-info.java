/**
 * <b>API.</b> Spring Boot auto-configuration: the store bean, appends joined to Spring's transactions, the drain
 * and retention as lifecycle beans, health and metrics. Applications use it through its properties
 * ({@code claimed-outbox.*}) and the beans it exposes; the configuration classes are not API.
 */
package io.claimedoutbox.spring;
