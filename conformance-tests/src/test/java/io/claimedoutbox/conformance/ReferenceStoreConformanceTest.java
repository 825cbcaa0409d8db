package io.claimedoutbox.conformance;

import io.claimedoutbox.conformance.reference.InMemoryStoreFixture;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite on the in-memory reference store")
class ReferenceStoreConformanceTest extends OutboxStoreConformanceSuite {

  private static final OutboxStoreFixture FIXTURE = InMemoryStoreFixture.reference();

  @Override
  protected OutboxStoreFixture fixture() {
    return FIXTURE;
  }
}
