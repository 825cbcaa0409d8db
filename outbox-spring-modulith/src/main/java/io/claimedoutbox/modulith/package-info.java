/**
 * <b>API.</b> Spring Modulith's event externalization through Claimed Outbox: events Modulith's
 * {@code EventExternalizationConfiguration} selects (by default those annotated {@code @Externalized})
 * are appended in the publishing transaction, topic and ordering key from their routing target, and
 * delivered by the outbox's drain. Applications use it through its auto-configuration and the
 * {@code claimed-outbox.modulith.enabled} property; the classes are not API.
 */
package io.claimedoutbox.modulith;
