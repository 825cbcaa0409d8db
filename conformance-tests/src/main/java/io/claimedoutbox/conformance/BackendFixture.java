package io.claimedoutbox.conformance;

import java.util.Set;

/**
 * A convenient base for a fixture: it carries the backend's report name and the capabilities the
 * fixture has, so a subclass writes only what touches its backend.
 */
public abstract class BackendFixture implements OutboxStoreFixture {

  private final String backendName;
  private final Set<FixtureCapability> capabilities;

  /**
   * @param backendName how reports name the backend, for example {@code PostgreSQL 16 (JPA adapter)}
   * @param capabilities the optional abilities the subclass implements
   */
  protected BackendFixture(String backendName, Set<FixtureCapability> capabilities) {
    this.backendName = backendName;
    this.capabilities = Set.copyOf(capabilities);
  }

  @Override
  public final String backendName() {
    return backendName;
  }

  @Override
  public final Set<FixtureCapability> capabilities() {
    return capabilities;
  }
}
