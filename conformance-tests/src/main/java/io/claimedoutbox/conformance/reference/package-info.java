/**
 * <b>test kit.</b> The executable specification: an in-memory store that follows the contract to the letter, with
 * planted faults the suite must catch in it.
 */
package io.claimedoutbox.conformance.reference;
