package io.claimedoutbox.cli;

import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import org.junit.jupiter.api.DisplayName;

/**
 * The conformance suite over the deployment named on the command line. The JUnit Platform builds
 * this class itself, so the fixture is handed over through a static field set just before launch.
 */
@DisplayName("Conformance suite on a live deployment")
public class LiveConformanceSuite extends OutboxStoreConformanceSuite {

  static volatile OutboxStoreFixture fixture;

  @Override
  protected OutboxStoreFixture fixture() {
    return fixture;
  }
}
