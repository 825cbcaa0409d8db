/**
 * <b>SPI.</b> For adapter authors only: the building blocks a store implementation uses (the template over
 * plain entry storage, field names, commit signalling, claim-on-append bookkeeping, payload budgets).
 * Applications never import this package (an ArchUnit rule holds the project's own to it); its
 * types may change between minor versions as the store kernel grows.
 */
package io.claimedoutbox.port.spi;
