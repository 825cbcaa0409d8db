/**
 * <b>API.</b> A drain handler that publishes each claimed entry to RabbitMQ and answers once the broker
 * confirmed it.
 */
package io.claimedoutbox.rabbitmq;
