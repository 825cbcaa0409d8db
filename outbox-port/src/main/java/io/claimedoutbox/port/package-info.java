/**
 * <b>API.</b> The store contracts applications call and adapters implement: appending, claiming, the
 * outcome-returning transitions, operations (counts, dead letters, requeue, purge) and commit
 * notifications, with the exceptions they may throw and what each adapter declares it supports
 * ({@code StoreCapability}). Applications program against these types only; helpers meant for
 * whoever implements a store live in {@code io.claimedoutbox.port.spi}.
 *
 * <p>{@code StoreArguments} and {@code OperationArguments} stay here although stores call them: they
 * are the contract's argument rules themselves ({@code MAX_BATCH}, which exception names which
 * argument), run by this package's own default methods and by callers that must not see the SPI
 * (the drain sizes its batches by {@code MAX_BATCH}, the Spring facade checks an append before it
 * joins a transaction).
 */
package io.claimedoutbox.port;
