/**
 * <b>API.</b> The Redis adapter (standalone and Cluster, through Jedis): {@code RedisOutboxStore} and its
 * builder; the Lua scripts, key layout and codec are package-private internals.
 */
package io.claimedoutbox.adapter.redis;
