package io.claimedoutbox.domain;

/**
 * The stable identity of a worker (a process or thread that drains entries) and so the owner of
 * the claims it holds.
 *
 * @param value never blank, at most {@value #MAX_LENGTH} characters, no control characters
 */
public record WorkerId(String value) {

  /** The longest accepted worker id. */
  public static final int MAX_LENGTH = 128;

  /**
   * Validates the id.
   *
   * @throws NullPointerException if {@code value} is null
   * @throws IllegalArgumentException if {@code value} is blank, too long or has control characters
   */
  public WorkerId {
    Arguments.requireStorable(Arguments.requireText(value, "workerId", MAX_LENGTH), "workerId");
    if (value.chars().anyMatch(Character::isISOControl)) {
      throw new IllegalArgumentException("workerId must not contain control characters");
    }
  }

  /**
   * Wraps a worker id.
   *
   * @param value the id
   * @return the id
   */
  public static WorkerId of(String value) {
    return new WorkerId(value);
  }

  @Override
  public String toString() {
    return value;
  }
}
