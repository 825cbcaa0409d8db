package io.claimedoutbox.adapter.jpa;

import java.util.EnumMap;
import java.util.Map;

/**
 * One fixture per database for the whole test run: building an {@code EntityManagerFactory} is the
 * expensive part, cleaning the table between tests is cheap.
 */
final class JpaFixtures {

  private static final Map<TestDatabase, JpaStoreFixture> OPEN = new EnumMap<>(TestDatabase.class);

  private JpaFixtures() {}

  static synchronized JpaStoreFixture of(TestDatabase database) {
    return OPEN.computeIfAbsent(database, JpaStoreFixture::new);
  }
}
