package io.claimedoutbox.drain;

import io.claimedoutbox.domain.Arguments;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * When to retry a failed message: exponential backoff with jitter, and a maximum number of
 * attempts after which the message is dead-lettered.
 *
 * @param initialBackoff the wait after the first failed attempt
 * @param maxBackoff the longest wait
 * @param multiplier how much each further failure multiplies the wait (at least 1)
 * @param jitter the fraction of each wait that is random, 0 (none) to 1 (the whole wait)
 * @param maxAttempts how many attempts a message gets before it is dead-lettered (at least 1)
 */
public record RetryPolicy(
    Duration initialBackoff, Duration maxBackoff, double multiplier, double jitter, int maxAttempts) {

  /**
   * Validates the policy.
   *
   * @throws IllegalArgumentException naming the bad component
   */
  public RetryPolicy {
    Arguments.requirePositive(initialBackoff, "initialBackoff");
    Arguments.requirePositive(maxBackoff, "maxBackoff");
    if (maxBackoff.compareTo(initialBackoff) < 0) {
      throw new IllegalArgumentException("maxBackoff must not be shorter than initialBackoff");
    }
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new IllegalArgumentException("multiplier must be at least 1, was " + multiplier);
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("jitter must be between 0 and 1, was " + jitter);
    }
    Arguments.requirePositive(maxAttempts, "maxAttempts");
  }

  /** @return 1 s doubling up to 5 min, half of each wait random, 10 attempts */
  public static RetryPolicy defaults() {
    return new RetryPolicy(Duration.ofSeconds(1), Duration.ofMinutes(5), 2.0, 0.5, 10);
  }

  /**
   * @param attempt the attempt that just failed, 1 for the first
   * @return whether no attempt is left
   */
  public boolean isExhausted(int attempt) {
    return attempt >= maxAttempts;
  }

  /**
   * The wait before the next attempt: {@code initialBackoff × multiplier^(attempt-1)}, capped at
   * {@code maxBackoff}, of which a random {@code jitter} fraction is taken away.
   *
   * @param attempt the attempt that just failed, 1 for the first
   * @param random the source of jitter
   * @return the wait
   */
  public Duration backoff(int attempt, RandomGenerator random) {
    double exponential = initialBackoff.toMillis() * Math.pow(multiplier, Math.max(0, attempt - 1));
    double capped = Math.min(exponential, maxBackoff.toMillis());
    double withJitter = capped * (1.0 - jitter * random.nextDouble());
    return Duration.ofMillis(Math.max(1, Math.round(withJitter)));
  }
}
