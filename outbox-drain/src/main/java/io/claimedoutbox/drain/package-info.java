/**
 * <b>API.</b> The drain applications run: {@code OutboxDrain} and its builder, the handler contracts
 * ({@code OutboxMessageHandler}, {@code TypedHandler}) and what a handler is given and may throw,
 * the retry policy, the drain's statistics and retention ({@code OutboxRetention}). The other
 * classes here (the poller, the handler pool, the result recorder, the lease keeper) are
 * package-private internals.
 */
package io.claimedoutbox.drain;
