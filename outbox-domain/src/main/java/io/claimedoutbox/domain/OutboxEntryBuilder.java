package io.claimedoutbox.domain;

import java.time.Instant;

/**
 * Collects an {@link OutboxEntry}'s fields; {@link #build()} validates them. Adapters use it to
 * decode stored rows, the state machine to derive the next entry. Not thread-safe.
 */
public final class OutboxEntryBuilder {

  EntryId id;
  OutboxMessage message;
  EntryStatus status;
  int attempts;
  Instant createdAt;
  Instant updatedAt;
  Instant availableAt;
  long claimGeneration;
  CurrentClaim currentClaim;
  String lastError;
  String progress;
  String deliveryReceipt;
  long revision;
  WriteStamp lastWriteStamp;

  OutboxEntryBuilder() {}

  OutboxEntryBuilder(OutboxEntry entry) {
    id = entry.id();
    message = entry.message();
    status = entry.status();
    attempts = entry.attempts();
    createdAt = entry.createdAt();
    updatedAt = entry.updatedAt();
    availableAt = entry.availableAt();
    claimGeneration = entry.claimGeneration();
    currentClaim = entry.currentClaim().orElse(null);
    lastError = entry.lastError().orElse(null);
    progress = entry.progress().orElse(null);
    deliveryReceipt = entry.deliveryReceipt().orElse(null);
    revision = entry.revision();
    lastWriteStamp = entry.lastWriteStamp().orElse(null);
  }

  /**
   * @param value the entry's id
   * @return this builder
   */
  public OutboxEntryBuilder id(EntryId value) {
    this.id = value;
    return this;
  }

  /**
   * @param value the message; its available time, if any, is not kept (the entry has its own)
   * @return this builder
   */
  public OutboxEntryBuilder message(OutboxMessage value) {
    this.message = value;
    return this;
  }

  /**
   * @param value the status
   * @return this builder
   */
  public OutboxEntryBuilder status(EntryStatus value) {
    this.status = value;
    return this;
  }

  /**
   * @param value how many claims were handed out
   * @return this builder
   */
  public OutboxEntryBuilder attempts(int value) {
    this.attempts = value;
    return this;
  }

  /**
   * @param value the append time
   * @return this builder
   */
  public OutboxEntryBuilder createdAt(Instant value) {
    this.createdAt = value;
    return this;
  }

  /**
   * @param value the last write time
   * @return this builder
   */
  public OutboxEntryBuilder updatedAt(Instant value) {
    this.updatedAt = value;
    return this;
  }

  /**
   * @param value the available or retry time
   * @return this builder
   */
  public OutboxEntryBuilder availableAt(Instant value) {
    this.availableAt = value;
    return this;
  }

  /**
   * @param value the newest handed-out claim generation
   * @return this builder
   */
  public OutboxEntryBuilder claimGeneration(long value) {
    this.claimGeneration = value;
    return this;
  }

  /**
   * @param value the current claim, or {@code null} for none
   * @return this builder
   */
  public OutboxEntryBuilder currentClaim(CurrentClaim value) {
    this.currentClaim = value;
    return this;
  }

  /**
   * @param value the last error, or {@code null}; stored as {@link StoredNotes#of}
   * @return this builder
   */
  public OutboxEntryBuilder lastError(String value) {
    this.lastError = StoredNotes.of(value);
    return this;
  }

  /**
   * @param value the progress, or {@code null}; stored as {@link StoredNotes#of}
   * @return this builder
   */
  public OutboxEntryBuilder progress(String value) {
    this.progress = StoredNotes.of(value);
    return this;
  }

  /**
   * @param value the receipt, or {@code null}; stored as {@link StoredNotes#of}
   * @return this builder
   */
  public OutboxEntryBuilder deliveryReceipt(String value) {
    this.deliveryReceipt = StoredNotes.of(value);
    return this;
  }

  /**
   * @param value the revision
   * @return this builder
   */
  public OutboxEntryBuilder revision(long value) {
    this.revision = value;
    return this;
  }

  /**
   * @param value the last write's stamp, or {@code null}
   * @return this builder
   */
  public OutboxEntryBuilder lastWriteStamp(WriteStamp value) {
    this.lastWriteStamp = value;
    return this;
  }

  /**
   * Raises the revision by one and records the stamp of the write that does it.
   *
   * @param stamp the write's stamp
   * @return this builder
   */
  public OutboxEntryBuilder nextRevision(WriteStamp stamp) {
    this.revision = Math.addExact(revision, 1);
    this.lastWriteStamp = Arguments.requireNonNull(stamp, "stamp");
    return this;
  }

  /**
   * Validates and builds the entry.
   *
   * @return the entry
   * @throws NullPointerException if a required field is missing
   * @throws IllegalArgumentException if the fields contradict each other
   */
  public OutboxEntry build() {
    checkInvariants();
    return new OutboxEntry(this);
  }

  private void checkInvariants() {
    if (revision < 1) {
      throw new IllegalArgumentException("revision must be positive, was " + revision);
    }
    if (attempts < 0 || claimGeneration < 0) {
      throw new IllegalArgumentException("attempts and claimGeneration must not be negative");
    }
    if (attempts > claimGeneration) {
      throw new IllegalArgumentException(
          "attempts " + attempts + " exceed claimGeneration " + claimGeneration);
    }
    if ((status == EntryStatus.CLAIMED) != (currentClaim != null)) {
      throw new IllegalArgumentException(
          "an entry has a current claim exactly when it is CLAIMED, but status is " + status
              + " and claim is " + currentClaim);
    }
    if (currentClaim != null && currentClaim.token().generation() != claimGeneration) {
      throw new IllegalArgumentException("current claim generation "
          + currentClaim.token().generation() + " differs from claimGeneration " + claimGeneration);
    }
  }
}
