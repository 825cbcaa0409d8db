package io.claimedoutbox.conformance.broken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.Rule;
import io.claimedoutbox.conformance.rules.RuleDisplayNames;
import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.conformance.reference.InMemoryStoreFixture;
import io.claimedoutbox.conformance.TransitionWriteHook;
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

  /** The blind spots planted bugs found (issue 25): each store is caught by its rule and by no other. */
  private static Stream<Arguments> blindSpotStores() {
    return Stream.of(
        Arguments.of(WritesOverTheRenewalSuite.class, Set.of(Rule.T14)),
        Arguments.of(RequeueAllDropsTheTopicSuite.class, Set.of(Rule.M4)),
        Arguments.of(PurgesByAgeAloneSuite.class, Set.of(Rule.M5)),
        Arguments.of(StoreTimeStandsStillSuite.class, Set.of(Rule.C14)),
        Arguments.of(TransitionsOnTheWorkersClockSuite.class, Set.of(Rule.C15)),
        Arguments.of(BatchWritesSilentlySuite.class, Set.of(Rule.B10)),
        Arguments.of(BatchSizeUncheckedSuite.class, Set.of(Rule.B7)),
        Arguments.of(GuessesAppliedFromTheNextRevisionSuite.class, Set.of(Rule.F6)),
        Arguments.of(ClaimsAppendedByDueQuerySuite.class, Set.of(Rule.C16)),
        Arguments.of(ReportsEntriesAsBeforeTheOfferSuite.class, Set.of(Rule.C17)),
        Arguments.of(ListenersHearOnlyTransitionsSuite.class, Set.of(Rule.A5)),
        // a walk that never ends: M2 stops at its bound instead of hanging (requeueAll's own guard keeps M4 from hanging)
        Arguments.of(DeadLettersIgnoreAfterSuite.class, Set.of(Rule.M2)));
  }

  @ParameterizedTest(name = "{0} fails only {1}")
  @MethodSource("blindSpotStores")
  void blindSpotStoreFailsOnlyItsRule(Class<?> suite, Set<Rule> expected) {
    Set<Rule> failedRules = new TreeSet<>();
    for (Event failure : failures(suite)) {
      Rule rule = ruleOf(failure);
      failedRules.add(rule);
      Throwable thrown = failure.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
      if (expected.contains(rule) && thrown.getMessage() != null && thrown.getMessage().startsWith("Rule ")) {
        assertThat(thrown.getMessage()).contains("If this fails, check " + rule.hint());
      }
    }
    assertThat(failedRules).as("rules failed by %s", suite.getSimpleName()).containsExactlyInAnyOrderElementsOf(expected);
    System.out.printf("%s caught by %s only%n", suite.getSimpleName(), failedRules);
  }

  @org.junit.jupiter.api.Test
  @DisplayName("H1 is stochastic: its failure names the seed and how to replay it")
  void stochasticRuleNamesItsSeed() {
    assertThat(Rule.H1.level()).isEqualTo(Rule.Level.STOCHASTIC);
    assertThat(Rule.H1.displayName()).startsWith("H1 [stochastic]");
    Event h1 = failures(KeysIgnoredSuite.class).stream().filter(failure -> ruleOf(failure) == Rule.H1).findFirst()
        .orElseThrow();
    assertThat(h1.getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow().getMessage())
        .containsPattern("seed -?\\d+; replay its random choices with -Doutbox.conformance.seed=-?\\d+");
  }

  private static List<Event> failures(Class<?> suite) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(suite)).execute().testEvents().failed().list();
  }

  private static Rule ruleOf(Event failure) {
    String method = failure.getTestDescriptor().getSource()
        .filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
        .map(source -> ((org.junit.platform.engine.support.descriptor.MethodSource) source).getMethodName())
        .orElseThrow();
    return RuleDisplayNames.ruleOf(method).orElseThrow();
  }

  static class ReportsEntriesAsBeforeTheOfferSuite extends BrokenSuite {
    ReportsEntriesAsBeforeTheOfferSuite() {
      super(BlindSpotStores.ReportsEntriesAsBeforeTheOffer::new);
    }
  }

  static class ClaimsAppendedByDueQuerySuite extends BrokenSuite {
    ClaimsAppendedByDueQuerySuite() {
      super(InMemoryStoreFixture.wrapped("ClaimsAppendedByDueQuerySuite", BlindSpotStores.ClaimsAppendedByDueQuery::new));
    }
  }

  static class ListenersHearOnlyTransitionsSuite extends BrokenSuite {
    ListenersHearOnlyTransitionsSuite() {
      super(InMemoryStoreFixture.wrapped("ListenersHearOnlyTransitionsSuite", BlindSpotStores.ListenersHearOnlyTransitions::new));
    }
  }

  static class WritesOverTheRenewalSuite extends BrokenSuite {
    WritesOverTheRenewalSuite() {
      super(BlindSpotStores.WritesOverTheRenewal::new);
    }
  }

  static class RequeueAllDropsTheTopicSuite extends BrokenSuite {
    RequeueAllDropsTheTopicSuite() {
      super(BlindSpotStores.RequeueAllDropsTheTopicAfterThePage::new);
    }
  }

  static class PurgesByAgeAloneSuite extends BrokenSuite {
    PurgesByAgeAloneSuite() {
      super(BlindSpotStores.PurgesByAgeAlone::new);
    }
  }

  /** A store-time clock that read the server once and never counted forward. */
  static class StoreTimeStandsStillSuite extends BrokenSuite {
    StoreTimeStandsStillSuite() {
      super(new InMemoryStoreFixture("StoreTimeStandsStillSuite", InMemoryOutboxStore::new,
          (storeClock, workerClock, hook) -> new InMemoryOutboxStore(Clock.fixed(storeClock.instant(),
              java.time.ZoneOffset.UTC), hook)));
    }
  }

  static class TransitionsOnTheWorkersClockSuite extends BrokenSuite {
    TransitionsOnTheWorkersClockSuite() {
      super(new InMemoryStoreFixture("TransitionsOnTheWorkersClockSuite", InMemoryOutboxStore::new,
          BlindSpotStores.TransitionsOnTheWorkersClock::new));
    }
  }

  static class BatchWritesSilentlySuite extends BrokenSuite {
    BatchWritesSilentlySuite() {
      super(InMemoryStoreFixture.wrapped("BatchWritesSilentlySuite", BlindSpotStores.BatchWritesSilently::new));
    }
  }

  static class BatchSizeUncheckedSuite extends BrokenSuite {
    BatchSizeUncheckedSuite() {
      super(InMemoryStoreFixture.wrapped("BatchSizeUncheckedSuite", BlindSpotStores.BatchSizeUnchecked::new));
    }
  }

  static class GuessesAppliedFromTheNextRevisionSuite extends BrokenSuite {
    GuessesAppliedFromTheNextRevisionSuite() {
      super(BlindSpotStores.GuessesAppliedFromTheNextRevision::new);
    }
  }

  static class DeadLettersIgnoreAfterSuite extends BrokenSuite {
    DeadLettersIgnoreAfterSuite() {
      super(BlindSpotStores.DeadLettersIgnoreAfter::new);
    }
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

    BrokenSuite(OutboxStoreFixture fixture) {
      this.fixture = fixture;
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
      super(InMemoryStoreFixture.wrapped("BatchAssumesSuccessSuite", BrokenStores.BatchAssumesSuccess::new));
    }
  }

  static class EmptyOwnerAcceptedSuite extends BrokenSuite {
    EmptyOwnerAcceptedSuite() {
      super(InMemoryStoreFixture.wrapped("EmptyOwnerAcceptedSuite", BrokenStores.EmptyOwnerAccepted::new));
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
      super(InMemoryStoreFixture.wrapped("LiveLeaseIgnoredSuite", BrokenStores.LiveLeaseIgnored::new));
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
      super(InMemoryStoreFixture.wrapped("OwnerOnlyFenceSuite", BrokenStores.OwnerOnlyFence::new));
    }
  }

  static class ExpiredLeaseIsStaleSuite extends BrokenSuite {
    ExpiredLeaseIsStaleSuite() {
      super(InMemoryStoreFixture.wrapped("ExpiredLeaseIsStaleSuite", BrokenStores.ExpiredLeaseIsStale::new));
    }
  }

  static class CompatibilityThrowsSuite extends BrokenSuite {
    CompatibilityThrowsSuite() {
      super(InMemoryStoreFixture.wrapped("CompatibilityThrowsSuite", BrokenStores.CompatibilityThrows::new));
    }
  }

  static class FabricatedMissingEntrySuite extends BrokenSuite {
    FabricatedMissingEntrySuite() {
      super(InMemoryStoreFixture.wrapped("FabricatedMissingEntrySuite", BrokenStores.FabricatedMissingEntry::new));
    }
  }

  static class PartialBatchSuite extends BrokenSuite {
    PartialBatchSuite() {
      super(InMemoryStoreFixture.wrapped("PartialBatchSuite", BrokenStores.PartialBatch::new));
    }
  }

  static class DamageSwallowedSuite extends BrokenSuite {
    DamageSwallowedSuite() {
      super(InMemoryStoreFixture.wrapped("DamageSwallowedSuite", BrokenStores.DamageSwallowed::new));
    }
  }

  static class TerminalOverwrittenSuite extends BrokenSuite {
    TerminalOverwrittenSuite() {
      super(InMemoryStoreFixture.wrapped("TerminalOverwrittenSuite", BrokenStores.TerminalOverwritten::new));
    }
  }
}
