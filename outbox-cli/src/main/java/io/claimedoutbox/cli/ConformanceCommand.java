package io.claimedoutbox.cli;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.claimedoutbox.conformance.RuleDisplayNames;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox conformance}: the conformance suite against a live deployment, rule by rule. */
@Command(name = "conformance", mixinStandardHelpOptions = true,
    description = {"Run the conformance suite against a live deployment through the JUnit Platform launcher,",
        "printing each rule's result. The suite works in the program's own namespace (schema or database",
        "outbox_cli, key prefix outbox-cli-…, or its own collection), never in your data. Exits 1 when a rule fails."})
final class ConformanceCommand implements Callable<Integer> {

  @Option(names = {"-b", "--backend"}, required = true, description = "The deployment: " + Backends.SUPPORTED + ".")
  String backend;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() {
    try (BackendSession session = Backends.open(backend, Clock.systemUTC())) {
      System.out.println("Conformance suite on " + session.label());
      LiveConformanceSuite.fixture = session.conformanceFixture();
      RulePrinter printer = new RulePrinter();
      Launcher launcher = LauncherFactory.create();
      launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(LiveConformanceSuite.class)).build(),
          printer);
      System.out.printf(Locale.ROOT, "%d passed, %d failed, %d skipped%n", printer.passed.get(), printer.failed.get(),
          printer.skipped.get());
      return printer.failed.get() == 0 && printer.passed.get() > 0 ? 0 : Main.BROKEN;
    } finally {
      LiveConformanceSuite.fixture = null;
    }
  }

  /** Prints one line per test: its rule, its result, and for failures the rule's message. */
  private static final class RulePrinter implements TestExecutionListener {
    final AtomicInteger passed = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final AtomicInteger skipped = new AtomicInteger();

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
      if (test.isTest()) {
        skipped.incrementAndGet();
        System.out.println("  SKIP  " + name(test) + " — " + reason);
      }
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
      if (!test.isTest()) {
        return;
      }
      switch (result.getStatus()) {
        case SUCCESSFUL -> {
          passed.incrementAndGet();
          System.out.println("  PASS  " + name(test));
        }
        case ABORTED -> {
          skipped.incrementAndGet();
          System.out.println("  SKIP  " + name(test) + " — "
              + result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
        default -> {
          failed.incrementAndGet();
          System.out.println("  FAIL  " + name(test));
          result.getThrowable().ifPresent(thrown -> System.out.println("        " + thrown.getMessage()
              .replace(System.lineSeparator(), System.lineSeparator() + "        ")));
        }
      }
    }

    private static String name(TestIdentifier test) {
      String rule = test.getSource()
          .filter(MethodSource.class::isInstance)
          .flatMap(source -> RuleDisplayNames.ruleOf(((MethodSource) source).getMethodName()))
          .map(found -> found.displayName())
          .orElse(test.getDisplayName());
      return rule.equals(test.getDisplayName()) ? rule : rule + " (" + test.getDisplayName() + ")";
    }
  }
}
