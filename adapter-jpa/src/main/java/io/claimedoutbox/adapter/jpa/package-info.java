/**
 * <b>API.</b> The SQL adapter (PostgreSQL, MariaDB, H2): {@code JdbcOutboxStore} and its builder, plain JDBC
 * over the application's {@code DataSource}, with appends joined to the caller's JDBC transaction
 * ({@code appendOn}, {@code beginAppendOn}, {@code PendingAppend}); {@code JpaOutboxStore}, the same store built
 * from an {@code EntityManagerFactory} with appends on an {@code EntityManager} ({@code appendWithin}), and the
 * mapped entity; the schema migrations. Only the JPA integration needs Jakarta Persistence and Hibernate ORM,
 * which the module declares optional. Everything not public is internal.
 */
package io.claimedoutbox.adapter.jpa;
