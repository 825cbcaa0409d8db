/**
 * <b>test kit.</b> The suite's rules, one class per area of the contract; run through {@code
 * OutboxStoreConformanceSuite}, not one by one.
 */
package io.claimedoutbox.conformance.rules;
