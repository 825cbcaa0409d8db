/**
 * <b>API.</b> The store contracts applications call and adapters implement: appending, claiming, the
 * outcome-returning transitions, operations (counts, dead letters, requeue, purge) and commit
 * notifications, with the exceptions they may throw and what each adapter declares it supports
 * ({@code StoreCapability}). Applications program against these types only; helpers meant for
 * whoever implements a store live in {@code io.claimedoutbox.port.spi}.
 */
package io.claimedoutbox.port;
