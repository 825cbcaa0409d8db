/**
 * <b>API.</b> The SQL adapter (PostgreSQL, MariaDB, H2) over Hibernate ORM: {@code JpaOutboxStore} and its
 * builder, the mapped entity, appends joined to the caller's transaction ({@code appendWithin},
 * {@code beginAppendOn}, {@code PendingAppend}) and the schema migrations. Everything not public is
 * internal.
 */
package io.claimedoutbox.adapter.jpa;
