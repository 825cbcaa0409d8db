package io.claimedoutbox.domain;

import java.util.UUID;

/**
 * The token of one claim: unique for every claim ever handed out, and carrying a per-entry
 * generation that strictly increases with every new claim of that entry, so downstream systems
 * can fence off writes from older generations.
 *
 * @param nonce random, unique per claim
 * @param generation 1 for an entry's first claim, one more for each later claim
 */
public record ClaimToken(UUID nonce, long generation) {

  /**
   * Validates the token.
   *
   * @throws NullPointerException if {@code nonce} is null
   * @throws IllegalArgumentException if {@code generation} is not positive
   */
  public ClaimToken {
    Arguments.requireNonNull(nonce, "nonce");
    if (generation < 1) {
      throw new IllegalArgumentException("generation must be positive, was " + generation);
    }
  }

  /**
   * A fresh token for the claim that follows {@code previousGeneration}.
   *
   * @param previousGeneration the entry's last handed-out generation, 0 when never claimed
   * @return a token with a new nonce and generation {@code previousGeneration + 1}
   */
  public static ClaimToken following(long previousGeneration) {
    if (previousGeneration < 0) {
      throw new IllegalArgumentException(
          "previousGeneration must not be negative, was " + previousGeneration);
    }
    return new ClaimToken(UUID.randomUUID(), Math.addExact(previousGeneration, 1));
  }

  @Override
  public String toString() {
    return generation + ":" + nonce;
  }
}
