/**
 * <b>API.</b> A drain handler that publishes each claimed entry to Kafka and answers once the broker
 * acknowledged it.
 */
package io.claimedoutbox.kafka;
