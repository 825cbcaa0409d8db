/**
 * <b>API.</b> Trace context through the outbox: the span current at append travels as a W3C {@code traceparent}
 * header and is continued around the handler.
 */
package io.claimedoutbox.tracing;
