package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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

  /** How long one store call a rule makes may take before the rule fails instead of hanging. */
  public static final Duration CALL_BOUND = Duration.ofSeconds(60);

  /**
   * Runs a call that loops inside the store or the library (paging, purging in batches) with a
   * bound: a store whose paging never ends fails the rule, naming it, instead of hanging the run.
   *
   * @param rule the rule enforced
   * @param what the call, for the message
   * @param call the call
   * @param <T> what it returns
   * @return what it returned
   */
  public static <T> T withinBound(Rule rule, String what, Supplier<T> call) {
    CompletableFuture<T> running = CompletableFuture.supplyAsync(call);
    try {
      return running.get(CALL_BOUND.toSeconds(), TimeUnit.SECONDS);
    } catch (TimeoutException hung) {
      running.cancel(true);
      throw new AssertionFailedError(rule.violation(what + " did not return within " + CALL_BOUND
          + " (a loop that never ends: paging that does not move on, a batch that never comes back short)"));
    } catch (ExecutionException failed) {
      if (failed.getCause() instanceof RuntimeException unchecked) {
        throw unchecked;
      }
      if (failed.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(failed.getCause());
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new AssertionFailedError(rule.violation(what + " was interrupted"));
    }
  }

  /**
   * A bound for a loop a rule runs itself: fails the rule, naming it, once the loop has gone round
   * {@code most} times.
   *
   * @param rule the rule enforced
   * @param rounds how many rounds the loop has made, this one included
   * @param most the most any correct store needs
   * @param what the loop, for the message
   */
  public static void requireBoundedLoop(Rule rule, int rounds, int most, String what) {
    require(rule, rounds <= most, () -> what + " did not end after " + most + " rounds");
  }
}
