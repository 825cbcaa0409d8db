package io.claimedoutbox.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One durable outbox entry as a store holds it: the message, its status, its attempts, the claim
 * it is held under (if any) and a revision that every successful write raises.
 *
 * <p>Immutable and thread-safe. Instants are kept to the millisecond. Two entries are equal when
 * every field is equal, payload bytes included, so an entry read back from a store equals the
 * entry the store wrote.
 *
 * <p>The state-machine steps ({@link #claimedBy}, {@link TransitionRequest#applyTo}) return new
 * entries and never change this one; they throw {@link IllegalStateException} when asked for a
 * step the state machine does not allow from this entry's status.
 */
public final class OutboxEntry {

  /** The longest last-error, progress or receipt text kept; longer texts are cut to this. */
  public static final int MAX_NOTE_LENGTH = 2000;

  private final EntryId id;
  private final OutboxMessage message;
  private final EntryStatus status;
  private final int attempts;
  private final Instant createdAt;
  private final Instant updatedAt;
  private final Instant availableAt;
  private final long claimGeneration;
  private final CurrentClaim currentClaim;
  private final String lastError;
  private final String progress;
  private final String deliveryReceipt;
  private final long revision;
  private final WriteStamp lastWriteStamp;

  OutboxEntry(OutboxEntryBuilder b) {
    this.id = Arguments.requireNonNull(b.id, "id");
    this.message = Arguments.requireNonNull(b.message, "message").withoutAvailableAt();
    this.status = Arguments.requireNonNull(b.status, "status");
    this.attempts = b.attempts;
    this.createdAt = Instants.stored(Arguments.requireNonNull(b.createdAt, "createdAt"));
    this.updatedAt = Instants.stored(Arguments.requireNonNull(b.updatedAt, "updatedAt"));
    this.availableAt = Instants.stored(Arguments.requireNonNull(b.availableAt, "availableAt"));
    this.claimGeneration = b.claimGeneration;
    this.currentClaim = b.currentClaim;
    this.lastError = b.lastError;
    this.progress = b.progress;
    this.deliveryReceipt = b.deliveryReceipt;
    this.revision = b.revision;
    this.lastWriteStamp = b.lastWriteStamp;
  }

  /**
   * A freshly appended entry at revision 1.
   *
   * @param id the new entry's id
   * @param message what to append; its available time (or {@code now}) becomes the entry's
   * @param now the append time
   * @param stamp the append write's stamp
   * @return a {@link EntryStatus#PENDING} entry
   */
  public static OutboxEntry appended(EntryId id, OutboxMessage message, Instant now, WriteStamp stamp) {
    Arguments.requireNonNull(message, "message");
    return builder()
        .id(id)
        .message(message)
        .status(EntryStatus.PENDING)
        .attempts(0)
        .createdAt(now)
        .updatedAt(now)
        .availableAt(message.availableAt().orElse(now))
        .claimGeneration(0)
        .revision(1)
        .lastWriteStamp(Arguments.requireNonNull(stamp, "stamp"))
        .build();
  }

  /**
   * When the entry may next be claimed: the available (or retry) time for {@code PENDING} and
   * {@code FAILED}, the lease end for {@code CLAIMED}, never for terminal entries.
   *
   * @return the due time, empty for terminal entries
   */
  public Optional<Instant> dueAt() {
    if (status.isTerminal()) {
      return Optional.empty();
    }
    return Optional.of(status == EntryStatus.CLAIMED ? currentClaim.leaseUntil() : availableAt);
  }

  /**
   * Whether a worker may claim the entry at {@code now}.
   *
   * @param now the current time
   * @return {@code true} for non-terminal entries whose due time is not after {@code now}
   */
  public boolean isDue(Instant now) {
    Instant stored = Instants.stored(Arguments.requireNonNull(now, "now"));
    return dueAt().map(due -> !due.isAfter(stored)).orElse(false);
  }

  /**
   * The entry as claimed by {@code worker}: a new token one generation larger, one more attempt,
   * a lease of {@code lease} from {@code now}, the next revision.
   *
   * @param worker who claims
   * @param now the claim time
   * @param lease how long others must wait
   * @param stamp the claim write's stamp
   * @return the claimed entry
   * @throws IllegalStateException if the entry is not due at {@code now}
   */
  public OutboxEntry claimedBy(WorkerId worker, Instant now, Duration lease, WriteStamp stamp) {
    Arguments.requireNonNull(worker, "worker");
    Arguments.requirePositive(lease, "lease");
    if (!isDue(now)) {
      throw new IllegalStateException("entry " + id + " is not due at " + now + " (" + status + ")");
    }
    ClaimToken token = ClaimToken.following(claimGeneration);
    return toBuilder()
        .status(EntryStatus.CLAIMED)
        .attempts(attempts + 1)
        .claimGeneration(token.generation())
        .currentClaim(new CurrentClaim(worker, token, now, now.plus(lease)))
        .updatedAt(now)
        .nextRevision(stamp)
        .build();
  }

  /**
   * The dead-lettered entry put back in the queue by an operator: {@code PENDING}, due at
   * {@code now}, attempts counted from zero again, the claim generation raised by one (so a worker
   * still holding an old claim gets {@code STALE_CLAIM}, never {@code APPLIED}), the last error kept.
   *
   * @param now the requeue time
   * @param stamp the requeue write's stamp
   * @return the requeued entry at the next revision
   * @throws IllegalStateException if the entry is not {@code DEAD_LETTERED}
   */
  public OutboxEntry requeued(Instant now, WriteStamp stamp) {
    Arguments.requireNonNull(now, "now");
    if (status != EntryStatus.DEAD_LETTERED) {
      throw new IllegalStateException("entry " + id + " is " + status + ", only a dead letter can be requeued");
    }
    return toBuilder()
        .status(EntryStatus.PENDING)
        .attempts(0)
        .availableAt(now)
        .claimGeneration(claimGeneration + 1)
        .currentClaim(null)
        .updatedAt(now)
        .nextRevision(stamp)
        .build();
  }

  /** @return the id */
  public EntryId id() {
    return id;
  }

  /** @return the message as appended: topic, ordering key, payload, headers; no available time */
  public OutboxMessage message() {
    return message;
  }

  /** @return the durable status */
  public EntryStatus status() {
    return status;
  }

  /** @return how many claims have been handed out for this entry (each counts an attempt) */
  public int attempts() {
    return attempts;
  }

  /** @return when the entry was appended */
  public Instant createdAt() {
    return createdAt;
  }

  /** @return when the entry was last written */
  public Instant updatedAt() {
    return updatedAt;
  }

  /** @return for {@code PENDING} the first claim time, for {@code FAILED} the retry time */
  public Instant availableAt() {
    return availableAt;
  }

  /** @return the generation of the newest claim ever handed out, 0 when never claimed */
  public long claimGeneration() {
    return claimGeneration;
  }

  /** @return the claim the entry is held under; present exactly when {@code CLAIMED} */
  public Optional<CurrentClaim> currentClaim() {
    return Optional.ofNullable(currentClaim);
  }

  /** @return the error of the last failure, or the dead-letter reason */
  public Optional<String> lastError() {
    return Optional.ofNullable(lastError);
  }

  /** @return the progress the holder recorded with its last save */
  public Optional<String> progress() {
    return Optional.ofNullable(progress);
  }

  /** @return the receipt recorded with the delivery */
  public Optional<String> deliveryReceipt() {
    return Optional.ofNullable(deliveryReceipt);
  }

  /** @return the durable revision; 1 after append, raised by every successful write */
  public long revision() {
    return revision;
  }

  /** @return the stamp of the write that produced this revision */
  public Optional<WriteStamp> lastWriteStamp() {
    return Optional.ofNullable(lastWriteStamp);
  }

  /**
   * A builder holding this entry's fields, for adapters that map stored rows and for the state
   * machine's steps.
   *
   * @return a builder preset with every field of this entry
   */
  public OutboxEntryBuilder toBuilder() {
    return new OutboxEntryBuilder(this);
  }

  /**
   * An empty builder, for adapters that decode stored rows.
   *
   * @return a new builder
   */
  public static OutboxEntryBuilder builder() {
    return new OutboxEntryBuilder();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutboxEntry that
        && id.equals(that.id) && message.equals(that.message) && status == that.status
        && attempts == that.attempts && claimGeneration == that.claimGeneration && revision == that.revision
        && createdAt.equals(that.createdAt) && updatedAt.equals(that.updatedAt)
        && availableAt.equals(that.availableAt) && Objects.equals(currentClaim, that.currentClaim)
        && Objects.equals(lastError, that.lastError) && Objects.equals(progress, that.progress)
        && Objects.equals(deliveryReceipt, that.deliveryReceipt)
        && Objects.equals(lastWriteStamp, that.lastWriteStamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, status, revision, claimGeneration);
  }

  @Override
  public String toString() {
    return "OutboxEntry[id=" + id + ", status=" + status + ", revision=" + revision
        + ", attempts=" + attempts + ", claim=" + currentClaim + ", topic=" + message.topic()
        + ", lastError=" + lastError + "]";
  }
}
