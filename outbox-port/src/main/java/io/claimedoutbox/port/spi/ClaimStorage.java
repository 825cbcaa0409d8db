package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a backend supplies for claims; {@link ClaimKernel} does the rest (the store's time, the claim
 * step of the domain, one write stamp per call, settling answers the backend did not give, the order
 * of the claims returned). Every method may throw the backend's failure as an unchecked exception;
 * the kernel lets it through, and the claim call fails with it.
 */
public interface ClaimStorage {

  /** Why a unit of work is opened: the backend may run the two differently. */
  enum Purpose {
    /** A due query and the writes of what it found ({@code claimDue}): repeatable, nothing is claimed until the writes. */
    DUE,
    /**
     * Writes of entries the caller read or appended ({@code claimAppended}, {@code claimNextOfKeys}): a
     * backend must not repeat them blindly after a lost answer, since a second try could not tell its
     * own claim from a rival's.
     */
    CHOSEN
  }

  /**
   * Runs {@code work} as one unit of work: in a transaction where the backend's due query locks
   * what it returns (then the writes cannot miss), statement by statement otherwise.
   *
   * @param purpose why
   * @param what the call in words, for the message of a failure ("claim due entries for worker-1")
   * @param work the kernel's reads and writes, through the unit it is given
   * @param <T> what the work returns
   * @return what the work returned, after the unit ended (committed)
   */
  <T> T inUnit(Purpose purpose, String what, UnitWork<T> work);

  /**
   * The first unfinished entry of each key, in append order, decoded; due or not (the kernel checks).
   * Read outside any unit. The default reads nothing: a backend without
   * {@link io.claimedoutbox.port.StoreCapability#CLAIM_BY_KEY}.
   *
   * @param keys distinct keys, at least one
   * @return at most one entry per key
   */
  default List<OutboxEntry> firstUnfinishedOfKeys(List<String> keys) {
    return List.of();
  }

  /**
   * @return whether the backend claims entries handed to it after their append
   *     ({@link io.claimedoutbox.port.StoreCapability#CLAIM_APPENDED}); false by default
   */
  default boolean claimsAppended() {
    return false;
  }

  /** The work of one unit. */
  @FunctionalInterface
  interface UnitWork<T> {
    /**
     * @param unit the unit's reads and writes
     * @return the work's result
     */
    T run(Unit unit);
  }

  /** The reads and writes of one unit of work. */
  interface Unit {

    /**
     * The oldest due entries that a claim may take, decoded (a damaged one throws before anything is
     * written): each the first unfinished entry of its ordering key, oldest due first, at most
     * {@code maxEntries}, and while their payloads fit {@code maxPayloadBytes} (the first always
     * does).
     *
     * @param now the store's time, at the precision entries are stored with
     * @param maxEntries at least one
     * @param maxPayloadBytes at least one
     * @return the candidates, oldest due first
     */
    List<OutboxEntry> dueCandidates(Instant now, int maxEntries, long maxPayloadBytes);

    /**
     * Writes each claim where its entry is still at the revision read.
     *
     * @param writes at least one, distinct entries
     * @return one answer per write, in order
     */
    List<WriteAnswer> writeClaims(List<ClaimWrite> writes);

    /**
     * Reads one entry in this unit (to settle an {@link WriteAnswer#UNSAID}).
     *
     * @param id the entry
     * @return the stored entry, empty when there is none
     */
    Optional<OutboxEntry> read(EntryId id);
  }
}
