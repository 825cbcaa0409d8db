package io.claimedoutbox.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
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
  private final String topic;
  private final String orderingKey;
  private final byte[] payload;
  private final Map<String, String> headers;
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

  private OutboxEntry(Builder b) {
    this.id = Arguments.requireNonNull(b.id, "id");
    this.topic = Arguments.requireText(b.topic, "topic", OutboxMessage.MAX_TOPIC_LENGTH);
    this.orderingKey = b.orderingKey;
    this.payload = Arguments.requireNonNull(b.payload, "payload").clone();
    this.headers = Collections.unmodifiableMap(
        new LinkedHashMap<>(Arguments.requireNonNull(b.headers, "headers")));
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
    checkInvariants();
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

  /**
   * A freshly appended entry at revision 1.
   *
   * @param id the new entry's id
   * @param message what to append
   * @param now the append time
   * @param stamp the append write's stamp
   * @return a {@link EntryStatus#PENDING} entry
   */
  public static OutboxEntry appended(EntryId id, OutboxMessage message, Instant now, WriteStamp stamp) {
    Arguments.requireNonNull(message, "message");
    return builder()
        .id(id)
        .topic(message.topic())
        .orderingKey(message.orderingKey().orElse(null))
        .payload(message.payload())
        .headers(message.headers())
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

  /** @return the id */
  public EntryId id() {
    return id;
  }

  /** @return the topic */
  public String topic() {
    return topic;
  }

  /** @return the ordering key, if the message had one */
  public Optional<String> orderingKey() {
    return Optional.ofNullable(orderingKey);
  }

  /** @return a copy of the payload */
  public byte[] payload() {
    return payload.clone();
  }

  /** @return the headers, unmodifiable, in insertion order */
  public Map<String, String> headers() {
    return headers;
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
   * A last-error, progress or receipt text as an entry stores it: cut to at most
   * {@value #MAX_NOTE_LENGTH} characters, never inside a surrogate pair, with every NUL character and
   * unpaired surrogate replaced by U+FFFD. Notes often come from exception messages a worker cannot
   * control, so they are made storable instead of rejected. Adapters that write notes without
   * building an entry (a Redis script, say) store exactly this.
   *
   * @param text the text, may be {@code null}
   * @return the stored form, {@code null} for {@code null}
   */
  public static String storedNote(String text) {
    if (text == null) {
      return null;
    }
    StringBuilder stored = new StringBuilder(Math.min(text.length(), MAX_NOTE_LENGTH));
    for (int i = 0; i < text.length() && stored.length() < MAX_NOTE_LENGTH; i++) {
      char c = text.charAt(i);
      boolean pair = Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
      if (pair) {
        if (stored.length() + 2 > MAX_NOTE_LENGTH) {
          break;
        }
        stored.append(c).append(text.charAt(++i));
      } else {
        stored.append(c == '\0' || Character.isSurrogate(c) ? '\uFFFD' : c);
      }
    }
    return stored.toString();
  }

  /**
   * A builder holding this entry's fields, for adapters that map stored rows and for the state
   * machine's steps.
   *
   * @return a builder preset with every field of this entry
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.id = id;
    b.topic = topic;
    b.orderingKey = orderingKey;
    b.payload = payload;
    b.headers = headers;
    b.status = status;
    b.attempts = attempts;
    b.createdAt = createdAt;
    b.updatedAt = updatedAt;
    b.availableAt = availableAt;
    b.claimGeneration = claimGeneration;
    b.currentClaim = currentClaim;
    b.lastError = lastError;
    b.progress = progress;
    b.deliveryReceipt = deliveryReceipt;
    b.revision = revision;
    b.lastWriteStamp = lastWriteStamp;
    return b;
  }

  /**
   * An empty builder, for adapters that decode stored rows.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof OutboxEntry that
        && id.equals(that.id)
        && topic.equals(that.topic)
        && Objects.equals(orderingKey, that.orderingKey)
        && Arrays.equals(payload, that.payload)
        && headers.equals(that.headers)
        && status == that.status
        && attempts == that.attempts
        && createdAt.equals(that.createdAt)
        && updatedAt.equals(that.updatedAt)
        && availableAt.equals(that.availableAt)
        && claimGeneration == that.claimGeneration
        && Objects.equals(currentClaim, that.currentClaim)
        && Objects.equals(lastError, that.lastError)
        && Objects.equals(progress, that.progress)
        && Objects.equals(deliveryReceipt, that.deliveryReceipt)
        && revision == that.revision
        && Objects.equals(lastWriteStamp, that.lastWriteStamp);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, status, revision, claimGeneration);
  }

  @Override
  public String toString() {
    return "OutboxEntry[id=" + id + ", status=" + status + ", revision=" + revision
        + ", attempts=" + attempts + ", claim=" + currentClaim + ", topic=" + topic
        + ", lastError=" + lastError + "]";
  }

  /**
   * Collects an entry's fields; {@link #build()} validates them. Not thread-safe.
   */
  public static final class Builder {
    private EntryId id;
    private String topic;
    private String orderingKey;
    private byte[] payload;
    private Map<String, String> headers = Map.of();
    private EntryStatus status;
    private int attempts;
    private Instant createdAt;
    private Instant updatedAt;
    private Instant availableAt;
    private long claimGeneration;
    private CurrentClaim currentClaim;
    private String lastError;
    private String progress;
    private String deliveryReceipt;
    private long revision;
    private WriteStamp lastWriteStamp;

    private Builder() {}

    /** @param value the id @return this builder */
    public Builder id(EntryId value) {
      this.id = value;
      return this;
    }

    /** @param value the topic @return this builder */
    public Builder topic(String value) {
      this.topic = value;
      return this;
    }

    /** @param value the ordering key, or {@code null} for none @return this builder */
    public Builder orderingKey(String value) {
      this.orderingKey = value;
      return this;
    }

    /** @param value the payload (not copied until {@link #build()}) @return this builder */
    public Builder payload(byte[] value) {
      this.payload = value;
      return this;
    }

    /** @param value the headers @return this builder */
    public Builder headers(Map<String, String> value) {
      this.headers = value;
      return this;
    }

    /** @param value the status @return this builder */
    public Builder status(EntryStatus value) {
      this.status = value;
      return this;
    }

    /** @param value the attempts @return this builder */
    public Builder attempts(int value) {
      this.attempts = value;
      return this;
    }

    /** @param value the append time @return this builder */
    public Builder createdAt(Instant value) {
      this.createdAt = value;
      return this;
    }

    /** @param value the last write time @return this builder */
    public Builder updatedAt(Instant value) {
      this.updatedAt = value;
      return this;
    }

    /** @param value the available or retry time @return this builder */
    public Builder availableAt(Instant value) {
      this.availableAt = value;
      return this;
    }

    /** @param value the newest handed-out generation @return this builder */
    public Builder claimGeneration(long value) {
      this.claimGeneration = value;
      return this;
    }

    /** @param value the current claim, or {@code null} for none @return this builder */
    public Builder currentClaim(CurrentClaim value) {
      this.currentClaim = value;
      return this;
    }

    /** @param value the last error, or {@code null}; cut to {@value #MAX_NOTE_LENGTH} @return this builder */
    public Builder lastError(String value) {
      this.lastError = cut(value);
      return this;
    }

    /** @param value the progress, or {@code null}; cut to {@value #MAX_NOTE_LENGTH} @return this builder */
    public Builder progress(String value) {
      this.progress = cut(value);
      return this;
    }

    /** @param value the receipt, or {@code null}; cut to {@value #MAX_NOTE_LENGTH} @return this builder */
    public Builder deliveryReceipt(String value) {
      this.deliveryReceipt = cut(value);
      return this;
    }

    /** @param value the revision @return this builder */
    public Builder revision(long value) {
      this.revision = value;
      return this;
    }

    /** @param value the last write's stamp, or {@code null} @return this builder */
    public Builder lastWriteStamp(WriteStamp value) {
      this.lastWriteStamp = value;
      return this;
    }

    /**
     * Raises the revision by one and records the stamp of the write that does it.
     *
     * @param stamp the write's stamp
     * @return this builder
     */
    public Builder nextRevision(WriteStamp stamp) {
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
      return new OutboxEntry(this);
    }

    private static String cut(String value) {
      return OutboxEntry.storedNote(value);
    }
  }
}
