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
   * Starts a policy from {@link #defaults()}, changed by name:
   * {@code RetryPolicy.builder().initialBackoff(Duration.ofSeconds(2)).maxAttempts(5).build()}.
   *
   * @return a builder holding the defaults
   */
  public static Builder builder() {
    return new Builder(defaults());
  }

  /** Builds a {@link RetryPolicy} by named settings; validated by {@link #build()}. Not thread-safe. */
  public static final class Builder {
    private Duration initialBackoff;
    private Duration maxBackoff;
    private double multiplier;
    private double jitter;
    private int maxAttempts;

    private Builder(RetryPolicy from) {
      this.initialBackoff = from.initialBackoff();
      this.maxBackoff = from.maxBackoff();
      this.multiplier = from.multiplier();
      this.jitter = from.jitter();
      this.maxAttempts = from.maxAttempts();
    }

    /**
     * @param value the wait after the first failed attempt (default 1 s)
     * @return this builder
     */
    public Builder initialBackoff(Duration value) {
      this.initialBackoff = value;
      return this;
    }

    /**
     * @param value the longest wait (default 5 min)
     * @return this builder
     */
    public Builder maxBackoff(Duration value) {
      this.maxBackoff = value;
      return this;
    }

    /**
     * @param value how much each further failure multiplies the wait, at least 1 (default 2)
     * @return this builder
     */
    public Builder multiplier(double value) {
      this.multiplier = value;
      return this;
    }

    /**
     * @param value the random fraction of each wait, 0 to 1 (default 0.5)
     * @return this builder
     */
    public Builder jitter(double value) {
      this.jitter = value;
      return this;
    }

    /**
     * @param value attempts before the message is dead-lettered, at least 1 (default 10)
     * @return this builder
     */
    public Builder maxAttempts(int value) {
      this.maxAttempts = value;
      return this;
    }

    /**
     * @return the policy
     * @throws IllegalArgumentException naming the bad setting
     */
    public RetryPolicy build() {
      return new RetryPolicy(initialBackoff, maxBackoff, multiplier, jitter, maxAttempts);
    }
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
