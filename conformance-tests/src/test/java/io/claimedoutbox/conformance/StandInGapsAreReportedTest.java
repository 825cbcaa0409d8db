package io.claimedoutbox.conformance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.claimedoutbox.conformance.reference.InMemoryStoreFixture;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

@DisplayName("A rule a stand-in fixture declares a gap is reported skipped with its reason, nothing else is")
class StandInGapsAreReportedTest {

  @Test
  void declaredGapIsASkipWithReason() {
    Events tests = EngineTestKit.engine("junit-jupiter")
        .selectors(selectClass(SuiteOnAStandIn.class))
        .execute()
        .testEvents();

    assertThat(tests.failed().count()).isZero();
    assertThat(tests.aborted().list())
        .extracting(event -> event.getTestDescriptor().getDisplayName())
        .anySatisfy(name -> assertThat(name).startsWith("A4 "))
        .allSatisfy(name -> assertThat(name).matches("(A4|B6|C7|C12) .*"));
    assertThat(tests.aborted().list())
        .map(event -> event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
            .getThrowable().orElseThrow().getMessage())
        .anySatisfy(reason -> assertThat(reason).contains("A4 is not checked on").contains("this stand-in cannot"));
  }

  static class SuiteOnAStandIn extends OutboxStoreConformanceSuite {
    private static final OutboxStoreFixture FIXTURE = new StandInFixture(InMemoryStoreFixture.reference());

    @Override
    protected OutboxStoreFixture fixture() {
      return FIXTURE;
    }
  }

  /** The reference fixture, pretending to be a stand-in that cannot serve rule A4. */
  private record StandInFixture(OutboxStoreFixture real) implements OutboxStoreFixture {
    @Override
    public Map<Rule, String> standInGaps() {
      return Map.of(Rule.A4, "this stand-in cannot look up unknown ids");
    }

    @Override
    public String backendName() {
      return "pretend stand-in";
    }

    @Override
    public Set<FixtureCapability> capabilities() {
      return real.capabilities();
    }

    @Override
    public void clean() {
      real.clean();
    }

    @Override
    public OutboxClaimOutcomeStore openStore(FixtureContext context) {
      return real.openStore(context);
    }

    @Override
    public OutboxClaimOutcomeStore openStoreOnStoreTime(FixtureContext context) {
      return real.openStoreOnStoreTime(context);
    }

    @Override
    public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
      return real.openStoreThrough(context, proxies);
    }

    @Override
    public Optional<RawEntryState> readRaw(EntryId id) {
      return real.readRaw(id);
    }

    @Override
    public long countRaw() {
      return real.countRaw();
    }

    @Override
    public void corrupt(EntryId id) {
      real.corrupt(id);
    }
  }
}
