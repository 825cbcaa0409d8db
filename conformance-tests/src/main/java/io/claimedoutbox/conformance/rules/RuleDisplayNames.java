package io.claimedoutbox.conformance.rules;

import io.claimedoutbox.conformance.Rule;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Names each suite test after its rule: a method {@code t4_staleWhenReclaimed} shows as
 * {@code T4 [required] STALE_CLAIM when another worker re-claimed …}.
 */
public final class RuleDisplayNames extends DisplayNameGenerator.Standard {

  /** Created by JUnit. */
  public RuleDisplayNames() {}

  @Override
  public String generateDisplayNameForMethod(
      List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
    return ruleOf(testMethod.getName())
        .map(Rule::displayName)
        .orElseGet(() -> super.generateDisplayNameForMethod(enclosingInstanceTypes, testClass, testMethod));
  }

  /**
   * The rule a test method is named after.
   *
   * @param methodName a method name such as {@code t4_staleWhenReclaimed}
   * @return the rule, if the name starts with a rule id and an underscore
   */
  public static java.util.Optional<Rule> ruleOf(String methodName) {
    int underscore = methodName.indexOf('_');
    if (underscore < 0) {
      return java.util.Optional.empty();
    }
    String id = methodName.substring(0, underscore).toUpperCase(Locale.ROOT);
    for (Rule rule : Rule.values()) {
      if (rule.name().equals(id)) {
        return java.util.Optional.of(rule);
      }
    }
    return java.util.Optional.empty();
  }
}
