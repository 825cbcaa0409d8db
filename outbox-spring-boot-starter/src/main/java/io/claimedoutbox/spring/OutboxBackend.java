package io.claimedoutbox.spring;

import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxOperations;

/**
 * The adapter store a backend configuration built, before the starter decorates it, and how it
 * joins the caller's transaction. One per context.
 *
 * @param name the backend, for messages and health details ({@code jpa}, {@code jdbc}, {@code redis}, {@code mongodb})
 * @param store the adapter's store
 * @param operations the same store as {@link OutboxOperations}
 * @param transactionalAppend how an append joins the caller's Spring transaction
 */
public record OutboxBackend(String name, OutboxClaimOutcomeStore store, OutboxOperations operations,
    ClaimedOutboxStore.TransactionalAppend transactionalAppend) {}
