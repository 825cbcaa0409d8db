package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A production topology the topology soak drains while it fails over: its stores (one per drain, or
 * one shared), the fault it injects, and what its replication promises.
 */
interface Topology extends AutoCloseable {

  String name();

  /** @return how writes reach the other nodes, as the soak's table names it ("synchronous", "none"…) */
  String replication();

  /**
   * @return whether an acknowledged write may be lost at a fault (asynchronous replication); when not,
   *     a lost entry or an undone {@code APPLIED} fails the soak
   */
  boolean mayLoseAcknowledgedWrites();

  /** @return the store the soak appends through and reads its books from */
  OutboxClaimOutcomeStore appender();

  /** @return the store drain {@code index} uses; the same object for several drains is fine */
  OutboxClaimOutcomeStore storeOfDrain(int index);

  /** @return every distinct store of {@link #appender()} and {@link #storeOfDrain(int)} */
  List<OutboxClaimOutcomeStore> stores();

  /**
   * When a fault struck and when the topology served writes again (a new primary promoted, a pooler
   * restarted; for a multi-primary group, at once), all {@link System#nanoTime()}; how many bytes of
   * changes the node that took over had not received when the fault struck (-1 where nothing takes over);
   * and since when acknowledged writes were missing from it ({@code lagSince}, from the primary's sampled
   * write positions; {@code struck} where nothing lagged): only writes acknowledged from then until the
   * new primary served may be lost.
   */
  record FaultTimes(long struck, long servedAgain, long behindBytes, long lagSince) {

    /** A fault after which nothing may be missing: no replica took over, or it had every write. */
    static FaultTimes withoutLag(long struck, long servedAgain) {
      return new FaultTimes(struck, servedAgain, -1, struck);
    }

    /** @return how long before the fault the node that took over stopped having every write, ms */
    long lagMillis() {
      return Math.max(0, TimeUnit.NANOSECONDS.toMillis(struck - lagSince));
    }
  }

  /** Injects fault number {@code index} (from 0) and returns once the topology serves writes again. */
  FaultTimes fault(int index) throws Exception;

  /** @return what the fault is, for the report ("kill -9 of the primary, promote of the standby") */
  String faultDescription();
}
