/**
 * <b>API.</b> The outbox's vocabulary and its rules, free of any storage: entries and their states, claims
 * (owner, token, lease), the transition outcomes and the decisions that compute them
 * ({@code ClaimFence}, {@code LostAcknowledgement}'s inputs, every new state). Applications, adapters
 * and tools all use these types; they depend on nothing but the JDK.
 */
package io.claimedoutbox.domain;
