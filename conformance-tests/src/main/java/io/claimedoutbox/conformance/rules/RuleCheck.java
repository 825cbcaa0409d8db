package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import java.util.Objects;
import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/** Assertions whose failures name the rule they enforce and say what to check. */
public final class RuleCheck {

  private RuleCheck() {}

  /**
   * Fails under {@code rule} unless {@code condition} holds.
   *
   * @param rule the rule enforced
   * @param condition what must hold
   * @param detail what was observed, computed only on failure
   */
  public static void require(Rule rule, boolean condition, Supplier<String> detail) {
    if (!condition) {
      throw new AssertionFailedError(rule.violation(detail.get()));
    }
  }

  /**
   * Fails under {@code rule} unless {@code actual} equals {@code expected}.
   *
   * @param rule the rule enforced
   * @param what what is compared, for example "outcome"
   * @param expected the expected value
   * @param actual the observed value
   */
  public static void requireEqual(Rule rule, String what, Object expected, Object actual) {
    if (!Objects.equals(expected, actual)) {
      throw new AssertionFailedError(
          rule.violation("expected " + what + " " + expected + " but was " + actual), expected, actual);
    }
  }

  /**
   * Fails under {@code rule} unless {@code action} throws {@code type} whose message contains
   * {@code argumentName}.
   *
   * @param rule the rule enforced
   * @param type the expected exception type
   * @param argumentName the argument the message must name
   * @param action the call with bad input
   * @param <T> the expected exception type
   * @return the exception thrown
   */
  public static <T extends Throwable> T requireThrows(
      Rule rule, Class<T> type, String argumentName, Runnable action) {
    try {
      action.run();
    } catch (Throwable thrown) {
      require(rule, type.isInstance(thrown), () -> "expected " + type.getSimpleName()
          + " naming '" + argumentName + "' but got " + thrown);
      require(rule, String.valueOf(thrown.getMessage()).contains(argumentName),
          () -> "the " + type.getSimpleName() + " should name '" + argumentName
              + "' but said: " + thrown.getMessage());
      return type.cast(thrown);
    }
    throw new AssertionFailedError(rule.violation(
        "expected " + type.getSimpleName() + " naming '" + argumentName + "' but nothing was thrown"));
  }
}
