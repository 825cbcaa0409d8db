package io.claimedoutbox.conformance.broken;

import io.claimedoutbox.conformance.reference.InMemoryOutboxStore;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The reference store behind a store written by hand: where a planted bug lives in code an adapter
 * on the kernel never writes (its own fence, its own batch loop), the broken store is this wrapper
 * with that one method written wrongly. Everything else, operations included, is the reference's.
 */
abstract class WrappedReference extends ForwardingOutboxStore implements OutboxOperations {

  private final InMemoryOutboxStore reference;

  WrappedReference(InMemoryOutboxStore reference) {
    super(reference);
    this.reference = reference;
  }

  /** @return the store behind this one, for its map and clock */
  final InMemoryOutboxStore reference() {
    return reference;
  }

  @Override
  public StatusCounts countByStatus() {
    return reference.countByStatus();
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    return reference.oldestDueAge();
  }

  @Override
  public List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    return reference.deadLetters(query);
  }

  @Override
  public RequeueResult requeue(EntryId id) {
    return reference.requeue(id);
  }

  @Override
  public int purgeFinished(Duration olderThan, int batchSize) {
    return reference.purgeFinished(olderThan, batchSize);
  }

  @Override
  public long countPurgeable(Duration olderThan) {
    return reference.countPurgeable(olderThan);
  }
}
