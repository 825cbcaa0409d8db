package io.claimedoutbox.benchmarks.soak;

import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.util.List;

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
   * restarted; for a multi-primary group, at once), both {@link System#nanoTime()}; and how many bytes of
   * changes the node that took over had not received when the fault struck (-1 where nothing takes over).
   */
  record FaultTimes(long struck, long servedAgain, long behindBytes) {}

  /** Injects fault number {@code index} (from 0) and returns once the topology serves writes again. */
  FaultTimes fault(int index) throws Exception;

  /** @return what the fault is, for the report ("kill -9 of the primary, promote of the standby") */
  String faultDescription();
}
