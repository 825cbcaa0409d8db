package io.claimedoutbox.cli;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.conformance.rules.RuleDisplayNames;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.PostDiscoveryFilter;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox conformance}: the conformance suite against a live deployment, rule by rule. */
@Command(name = "conformance", mixinStandardHelpOptions = true,
    description = {"Run the conformance suite against a live deployment and print each rule's result.",
        "It runs through the JUnit Platform launcher, one line per rule in the rules' order.",
        "The suite works in the program's own namespace (schema or database outbox_cli_<random>, key prefix"
            + " outbox-cli-…, or its own collection), never in your data.",
        "Exits 1 when a rule fails."})
final class ConformanceCommand implements Callable<Integer> {

  @Option(names = {"-b", "--backend"}, required = true, description = "The deployment: " + Backends.SUPPORTED + ".")
  String backend;

  @Option(names = "--rule", split = ",", description = "Run only these rules, for example F5 or T1,T4 (default: all).")
  List<Rule> rules;

  @Option(names = "--repeat", defaultValue = "1",
      description = "Run the suite this many times in a row, stopping at the first failing run (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() {
    if (repeat < 1) {
      throw new UsageException("--repeat must be at least 1, was " + repeat);
    }
    try (BackendSession session = Backends.open(backend, Clock.systemUTC())) {
      System.out.println("Conformance suite on " + session.label()
          + (rules == null ? "" : ", rules " + rules) + (repeat == 1 ? "" : ", " + repeat + " runs"));
      LiveConformanceSuite.fixture = session.conformanceFixture();
      for (int run = 1; run <= repeat; run++) {
        RuleResults results = new RuleResults();
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request()
            .selectors(selectClass(LiveConformanceSuite.class));
        if (rules != null) {
          Set<Rule> chosen = Set.copyOf(rules);
          // a parameterised rule is a container with a method source: filtered like a test
          request.filters((PostDiscoveryFilter) descriptor -> FilterResult.includedIf(
              ruleOf(descriptor.getSource().orElse(null)).map(chosen::contains).orElse(!descriptor.isTest())));
        }
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request.build(), results);
        if (repeat > 1) {
          System.out.println("run " + run + " of " + repeat + ":");
        }
        results.print();
        System.out.printf(Locale.ROOT, "%d passed, %d failed, %d skipped%n", results.count(Status.PASS),
            results.count(Status.FAIL), results.count(Status.SKIP));
        if (results.count(Status.FAIL) > 0 || results.count(Status.PASS) == 0) {
          if (repeat > 1) {
            System.out.println("stopped: run " + run + " of " + repeat + " did not pass");
          }
          return Main.BROKEN;
        }
      }
      if (repeat > 1) {
        System.out.println("all " + repeat + " runs passed");
      }
      return 0;
    } finally {
      LiveConformanceSuite.fixture = null;
    }
  }

  private static Optional<Rule> ruleOf(TestSource source) {
    return source instanceof MethodSource method ? RuleDisplayNames.ruleOf(method.getMethodName())
        : Optional.empty();
  }

  private enum Status { PASS, SKIP, FAIL }

  /**
   * Collects every test's result under its rule and prints one line per rule, in the rules' order:
   * FAIL when any case failed (with each failure's message), SKIP when every case was skipped (with
   * the reason), else PASS; parameterised rules say how many cases ran.
   */
  private static final class RuleResults implements TestExecutionListener {
    private final Map<Rule, List<Status>> byRule = new TreeMap<>();
    private final Map<Rule, Set<String>> notes = new TreeMap<>();

    @Override
    public synchronized void executionSkipped(TestIdentifier test, String reason) {
      if (test.isTest()) {
        record(test, Status.SKIP, reason);
      }
    }

    @Override
    public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
      if (!test.isTest()) {
        return;
      }
      String message = result.getThrowable().map(Throwable::getMessage).orElse("aborted");
      switch (result.getStatus()) {
        case SUCCESSFUL -> record(test, Status.PASS, null);
        case ABORTED -> record(test, Status.SKIP, message);
        default -> record(test, Status.FAIL, message);
      }
    }

    private void record(TestIdentifier test, Status status, String note) {
      Rule rule = test.getSource()
          .filter(MethodSource.class::isInstance)
          .flatMap(source -> RuleDisplayNames.ruleOf(((MethodSource) source).getMethodName()))
          .orElseThrow(() -> new IllegalStateException("a conformance test without a rule: " + test.getDisplayName()));
      byRule.computeIfAbsent(rule, r -> new ArrayList<>()).add(status);
      if (note != null) {
        notes.computeIfAbsent(rule, r -> new LinkedHashSet<>()).add(note);
      }
    }

    int count(Status status) {
      return (int) byRule.values().stream().flatMap(List::stream).filter(status::equals).count();
    }

    void print() {
      byRule.forEach((rule, statuses) -> {
        Status status = statuses.contains(Status.FAIL) ? Status.FAIL
            : statuses.stream().allMatch(Status.SKIP::equals) ? Status.SKIP : Status.PASS;
        String cases = statuses.size() == 1 ? "" : String.format(Locale.ROOT, " (%d cases: %d passed, %d skipped, %d failed)",
            statuses.size(), Collections.frequency(statuses, Status.PASS), Collections.frequency(statuses, Status.SKIP),
            Collections.frequency(statuses, Status.FAIL));
        System.out.println("  " + status + "  " + rule.displayName() + cases);
        if (status != Status.PASS) {
          notes.getOrDefault(rule, Set.of()).forEach(note -> System.out.println("        "
              + note.replace(System.lineSeparator(), System.lineSeparator() + "        ")));
        }
      });
    }
  }
}
