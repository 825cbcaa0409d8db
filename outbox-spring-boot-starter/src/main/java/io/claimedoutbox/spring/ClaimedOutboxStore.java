package io.claimedoutbox.spring;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxOperations;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import io.claimedoutbox.port.StoreArguments;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The one store bean: injectable as {@code OutboxStore}, {@code OutboxClaimStore},
 * {@code OutboxClaimOutcomeStore} and {@code OutboxOperations}, all the same instance.
 *
 * <p>{@link #appendAll} joins the Spring transaction active on the calling thread, where the
 * backend can (the JPA adapter through the shared {@code EntityManager}, the MongoDB adapter through
 * Spring Data MongoDB's session-bound database): the entries commit or roll back with the caller's
 * business write. Without an active transaction, or on a backend that
 * cannot join one, it appends in a transaction of its own. When a tracer is present, each message
 * carries the current trace in its {@code traceparent} header. Metrics and observations are
 * listeners of the backend's store ({@link #listen} reaches it too), so every call is observed
 * once, however it is made. Thread-safe.
 */
public final class ClaimedOutboxStore extends ForwardingOutboxStore implements OutboxOperations {

  /** How the backend appends inside the caller's transaction, when there is one. */
  @FunctionalInterface
  public interface TransactionalAppend {
    /**
     * @param messages checked messages
     * @return the appended entries, or empty when no transaction is active here
     */
    Optional<List<OutboxEntry>> appendInCurrentTransaction(List<OutboxMessage> messages);

    /** Never joins: every append runs on its own. */
    TransactionalAppend NONE = messages -> Optional.empty();
  }

  private final OutboxOperations operations;
  private final TransactionalAppend transactionalAppend;
  private final UnaryOperator<OutboxMessage> decorateMessage;

  ClaimedOutboxStore(OutboxClaimOutcomeStore store, OutboxOperations operations,
      TransactionalAppend transactionalAppend, UnaryOperator<OutboxMessage> decorateMessage) {
    super(store);
    this.operations = Arguments.requireNonNull(operations, "operations");
    this.transactionalAppend = Arguments.requireNonNull(transactionalAppend, "transactionalAppend");
    this.decorateMessage = Arguments.requireNonNull(decorateMessage, "decorateMessage");
  }

  @Override
  public List<OutboxEntry> appendAll(List<OutboxMessage> messages) {
    List<OutboxMessage> checked = StoreArguments.checkAppendAll(messages).stream().map(decorateMessage).toList();
    return transactionalAppend.appendInCurrentTransaction(checked).orElseGet(() -> delegate().appendAll(checked));
  }

  @Override
  public StatusCounts countByStatus() {
    return operations.countByStatus();
  }

  @Override
  public Optional<Duration> oldestDueAge() {
    return operations.oldestDueAge();
  }

  @Override
  public List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    return operations.deadLetters(query);
  }

  @Override
  public RequeueResult requeue(EntryId id) {
    return operations.requeue(id);
  }

  @Override
  public long countPurgeable(Duration olderThan) {
    return operations.countPurgeable(olderThan);
  }

  @Override
  public int purgeFinished(Duration olderThan, int batchSize) {
    return operations.purgeFinished(olderThan, batchSize);
  }
}
