/**
 * <b>API.</b> The MongoDB adapter: {@code MongoOutboxStore} and its builder; documents, operations and the
 * change-stream channel are package-private internals.
 */
package io.claimedoutbox.adapter.mongodb;
