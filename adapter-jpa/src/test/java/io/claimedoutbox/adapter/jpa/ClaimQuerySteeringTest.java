package io.claimedoutbox.adapter.jpa;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("JPA adapter: which due query the next claim runs, from what the last ones saw")
class ClaimQuerySteeringTest {

  private final ClaimQuerySteering steering = new ClaimQuerySteering();

  @Test
  @DisplayName("the unkeyed query first; after it finds nothing, the query for all; back once all finds rows and no keyed row due")
  void unkeyedQueryWhileNoKeyedRowIsDue() {
    assertThat(steering.firstKind()).isEqualTo(DueQueries.Kind.UNKEYED_ONLY);
    steering.unkeyedOnlyFound(500);
    assertThat(steering.firstKind()).isEqualTo(DueQueries.Kind.UNKEYED_ONLY);

    steering.unkeyedOnlyFound(0);
    assertThat(steering.firstKind()).as("after an empty unkeyed claim").isEqualTo(DueQueries.Kind.ALL);
    steering.allFound(false, -1, false, 0, 500);
    assertThat(steering.firstKind()).as("after an empty claim of all (idle)").isEqualTo(DueQueries.Kind.ALL);
    steering.allFound(false, -1, true, 10, 500);
    assertThat(steering.firstKind()).as("after a claim of all while keyed rows are due").isEqualTo(DueQueries.Kind.ALL);
    steering.allFound(false, -1, false, 10, 500);
    assertThat(steering.firstKind()).as("after rows and no keyed row due").isEqualTo(DueQueries.Kind.UNKEYED_ONLY);
  }

  @Test
  @DisplayName("the walk while it fills the batch; the key scan after a short walk and while it finds at most 1,000 keys")
  void keyScanWhileFewKeysHoldEntriesBack() {
    assertThat(steering.scanKeys()).isFalse();
    steering.allFound(false, -1, true, 500, 500);
    assertThat(steering.scanKeys()).as("after a full walk").isFalse();
    steering.allFound(false, -1, true, 40, 500);
    assertThat(steering.scanKeys()).as("after a short walk").isTrue();
    steering.allFound(true, 100, true, 50, 500);
    assertThat(steering.scanKeys()).as("after a scan of 100 keys").isTrue();
    steering.allFound(true, -1, false, 0, 500);
    assertThat(steering.scanKeys()).as("after a scan that found nothing claimable").isTrue();
    steering.allFound(true, DueQueries.KEY_SCAN_LIMIT + 1, true, 500, 500);
    assertThat(steering.scanKeys()).as("after a scan that met more keys than it may visit").isFalse();
  }
}
