package io.claimedoutbox.adapter.jpa;

/**
 * Which due query a store's next claim runs ({@link DueQueries}), from what its last claims saw. It
 * only steers the cost: every query it picks returns the oldest due claimable rows, or (the unkeyed
 * query, while a keyed row is due) nothing, after which the claim runs the query for all. Shared by
 * concurrent claims without a lock; a lost update costs one claim the dearer way.
 */
final class ClaimQuerySteering {

  /** Whether the last claim found due rows and no keyed row due: the outbox uses no keys now. */
  private volatile boolean unkeyedOnly = true;

  /**
   * Whether the keys' heads are found by the key scan: after a walk that came back short of the batch
   * (it may have read past held-back entries), and while the last key scan found at most
   * {@link DueQueries#KEY_SCAN_LIMIT} keys.
   */
  private volatile boolean scanKeys;

  /** @return the query the next claim tries first */
  DueQueries.Kind firstKind() {
    return unkeyedOnly ? DueQueries.Kind.UNKEYED_ONLY : DueQueries.Kind.ALL;
  }

  /** @return whether a query for all rows finds the keys' heads by the key scan */
  boolean scanKeys() {
    return scanKeys;
  }

  /**
   * After the unkeyed query: nothing found means the outbox is idle or a keyed row is due; the claim
   * then runs the query for all, which tells.
   */
  void unkeyedOnlyFound(int claimable) {
    if (claimable == 0) {
      unkeyedOnly = false;
    }
  }

  /**
   * After the query for all rows.
   *
   * @param scanned whether it ran the key scan
   * @param keysFound how many keys the scan found, -1 when no row came back to say
   * @param keyedDue whether a keyed row was due
   * @param claimable how many claimable rows it found
   * @param limit how many it asked for
   */
  void allFound(boolean scanned, int keysFound, boolean keyedDue, int claimable, int limit) {
    if (claimable > 0 && !keyedDue) {
      unkeyedOnly = true;
    }
    // a scan that found nothing claimable says nothing about the keys: it goes on
    boolean next = scanned ? keysFound <= DueQueries.KEY_SCAN_LIMIT : claimable < limit;
    if (next != scanKeys) {
      scanKeys = next;
    }
  }
}
