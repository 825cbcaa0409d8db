package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.port.spi.EntryStorage;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An adapter's {@link EntryStorage} with the suite's race stager in front of every transition's
 * compare-and-set, so the staged-race rules (T7–T9) reach a store built on
 * {@link io.claimedoutbox.port.spi.StorageBackedOutboxStore}. The production store has no such seam:
 * a fixture wraps its storage with this in {@link OutboxStoreFixture#openStore}.
 */
public final class RaceStagingStorage implements EntryStorage {

  private final EntryStorage storage;
  private final TransitionWriteHook hook;

  private RaceStagingStorage(EntryStorage storage, TransitionWriteHook hook) {
    this.storage = storage;
    this.hook = hook;
  }

  /**
   * @param storage the adapter's storage
   * @param context the suite's context, whose write hook runs before each transition's write
   * @return the storage with the hook in front of transition writes
   */
  public static EntryStorage around(EntryStorage storage, FixtureContext context) {
    return new RaceStagingStorage(storage, context.writeHook());
  }

  @Override
  public boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
    boolean transition = expected.status() == EntryStatus.CLAIMED
        && next.claimGeneration() == expected.claimGeneration();
    if (transition) {
      hook.beforeWrite(Claim.of(expected), kindOf(next));
    }
    return storage.compareAndSet(expected, next);
  }

  private static TransitionKind kindOf(OutboxEntry next) {
    return switch (next.status()) {
      case DELIVERED -> TransitionKind.DELIVERED;
      case FAILED -> TransitionKind.FAILED;
      case DEAD_LETTERED -> TransitionKind.DEAD_LETTERED;
      default -> TransitionKind.SAVE;
    };
  }

  @Override
  public void insertAll(List<OutboxEntry> entries) {
    storage.insertAll(entries);
  }

  @Override
  public Optional<OutboxEntry> read(EntryId id) {
    return storage.read(id);
  }

  @Override
  public boolean remove(EntryId id) {
    return storage.remove(id);
  }

  @Override
  public List<OutboxEntry> dueCandidates(Instant now, int limit) {
    return storage.dueCandidates(now, limit);
  }
}
