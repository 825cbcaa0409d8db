package io.claimedoutbox.conformance.broken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.conformance.rules.RuleDisplayNames;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.conformance.reference.InMemoryStoreFixture;
import io.claimedoutbox.port.TransitionWriteHook;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * The suite proves itself: each deliberately broken store must fail the rule its bug breaks, with
 * a message that names the rule and says what to check.
 */
@DisplayName("Each deliberately broken store is caught by the suite")
class BrokenStoresAreCaughtTest {

  private static Stream<Arguments> brokenStores() {
    return Stream.of(
        Arguments.of(EmptyOwnerAcceptedSuite.class, Rule.T5),
        Arguments.of(AppliedOnLostRaceSuite.class, Rule.T8),
        Arguments.of(SameTokenOnReclaimSuite.class, Rule.C5),
        Arguments.of(LiveLeaseIgnoredSuite.class, Rule.C6),
        Arguments.of(UnboundedBatchSuite.class, Rule.C3),
        Arguments.of(NewestFirstSuite.class, Rule.C2),
        Arguments.of(KeysIgnoredSuite.class, Rule.O1),
        Arguments.of(KeysIgnoredSuite.class, Rule.H1),
        Arguments.of(RequeueKeepsGenerationSuite.class, Rule.M3),
        Arguments.of(OwnerOnlyFenceSuite.class, Rule.T6),
        Arguments.of(ExpiredLeaseIsStaleSuite.class, Rule.C8),
        Arguments.of(CompatibilityThrowsSuite.class, Rule.K1),
        Arguments.of(FabricatedMissingEntrySuite.class, Rule.T2),
        Arguments.of(PartialBatchSuite.class, Rule.B3),
        Arguments.of(DamageSwallowedSuite.class, Rule.B5),
        Arguments.of(TerminalOverwrittenSuite.class, Rule.T3),
        Arguments.of(BatchAssumesSuccessSuite.class, Rule.T11),
        Arguments.of(GuessesAppliedOnLostAnswerSuite.class, Rule.F1),
        Arguments.of(RawDriverExceptionEscapesSuite.class, Rule.F1));
  }

  @ParameterizedTest(name = "{0} fails {1}")
  @MethodSource("brokenStores")
  void brokenStoreFailsItsRuleReadably(Class<?> suite, Rule expected) {
    List<Event> failures = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(suite))
        .execute()
        .testEvents()
        .failed()
        .list();

    Set<Rule> failedRules = new TreeSet<>();
    for (Event failure : failures) {
      String method = failure.getTestDescriptor().getSource()
          .filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
          .map(source -> ((org.junit.platform.engine.support.descriptor.MethodSource) source)
              .getMethodName())
          .orElseThrow();
      Rule rule = RuleDisplayNames.ruleOf(method).orElseThrow();
      failedRules.add(rule);
      Throwable thrown = failure.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
      if (rule == expected) {
        assertThat(thrown.getMessage())
            .as("failure of %s in %s", method, suite.getSimpleName())
            .startsWith("Rule " + expected.name() + " violated (" + expected.title() + ")")
            .contains("If this fails, check " + expected.hint());
      }
    }
    assertThat(failedRules).as("rules failed by %s", suite.getSimpleName()).contains(expected);
    System.out.printf("%s caught by %s%n", suite.getSimpleName(), failedRules);
  }

  private abstract static class BrokenSuite extends OutboxStoreConformanceSuite {
    private final OutboxStoreFixture fixture;

    BrokenSuite(BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> store) {
      this.fixture = new InMemoryStoreFixture(getClass().getSimpleName(), store);
    }

    @Override
    protected OutboxStoreFixture fixture() {
      return fixture;
    }
  }

  static class GuessesAppliedOnLostAnswerSuite extends BrokenSuite {
    GuessesAppliedOnLostAnswerSuite() {
      super(BrokenStores.GuessesAppliedOnLostAnswer::new);
    }
  }

  static class RawDriverExceptionEscapesSuite extends BrokenSuite {
    RawDriverExceptionEscapesSuite() {
      super(BrokenStores.RawDriverExceptionEscapes::new);
    }
  }

  static class BatchAssumesSuccessSuite extends BrokenSuite {
    BatchAssumesSuccessSuite() {
      super(BrokenStores.BatchAssumesSuccess::new);
    }
  }

  static class EmptyOwnerAcceptedSuite extends BrokenSuite {
    EmptyOwnerAcceptedSuite() {
      super(BrokenStores.EmptyOwnerAccepted::new);
    }
  }

  static class AppliedOnLostRaceSuite extends BrokenSuite {
    AppliedOnLostRaceSuite() {
      super(BrokenStores.AppliedOnLostRace::new);
    }
  }

  static class SameTokenOnReclaimSuite extends BrokenSuite {
    SameTokenOnReclaimSuite() {
      super(BrokenStores.SameTokenOnReclaim::new);
    }
  }

  static class LiveLeaseIgnoredSuite extends BrokenSuite {
    LiveLeaseIgnoredSuite() {
      super(BrokenStores.LiveLeaseIgnored::new);
    }
  }

  static class UnboundedBatchSuite extends BrokenSuite {
    UnboundedBatchSuite() {
      super(BrokenStores.UnboundedBatch::new);
    }
  }

  static class NewestFirstSuite extends BrokenSuite {
    NewestFirstSuite() {
      super(BrokenStores.NewestFirst::new);
    }
  }

  static class KeysIgnoredSuite extends BrokenSuite {
    KeysIgnoredSuite() {
      super(BrokenStores.KeysIgnored::new);
    }
  }

  static class RequeueKeepsGenerationSuite extends BrokenSuite {
    RequeueKeepsGenerationSuite() {
      super(BrokenStores.RequeueKeepsGeneration::new);
    }
  }

  static class OwnerOnlyFenceSuite extends BrokenSuite {
    OwnerOnlyFenceSuite() {
      super(BrokenStores.OwnerOnlyFence::new);
    }
  }

  static class ExpiredLeaseIsStaleSuite extends BrokenSuite {
    ExpiredLeaseIsStaleSuite() {
      super(BrokenStores.ExpiredLeaseIsStale::new);
    }
  }

  static class CompatibilityThrowsSuite extends BrokenSuite {
    CompatibilityThrowsSuite() {
      super(BrokenStores.CompatibilityThrows::new);
    }
  }

  static class FabricatedMissingEntrySuite extends BrokenSuite {
    FabricatedMissingEntrySuite() {
      super(BrokenStores.FabricatedMissingEntry::new);
    }
  }

  static class PartialBatchSuite extends BrokenSuite {
    PartialBatchSuite() {
      super(BrokenStores.PartialBatch::new);
    }
  }

  static class DamageSwallowedSuite extends BrokenSuite {
    DamageSwallowedSuite() {
      super(BrokenStores.DamageSwallowed::new);
    }
  }

  static class TerminalOverwrittenSuite extends BrokenSuite {
    TerminalOverwrittenSuite() {
      super(BrokenStores.TerminalOverwritten::new);
    }
  }
}
