/**
 * <b>API.</b> Typed payloads over the byte-array entries: a codec an application plugs in (JSON through
 * {@code outbox-jackson}, or its own) and the error raised for a payload it cannot decode.
 */
package io.claimedoutbox.port.payload;
