package io.claimedoutbox.adapter.mongodb;

import io.claimedoutbox.domain.ClaimToken;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.UndecodableEntryException;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import org.bson.Document;
import org.bson.types.Binary;

/**
 * The stored document of one entry and its decoding. Field names are the constants below, which are
 * {@link EntryFields}' but for {@code _id} and the index keys {@code dueAt} (set while unfinished)
 * and {@code finishedAt} (set once finished: the last write's time); headers
 * are an array of {@code {name, value}} pairs, because header names may contain dots and dollars
 * that a sub-document's keys may not.
 */
final class EntryDocuments {

  /** MongoDB's primary key; every other name is {@link EntryFields}', the one field table. */
  static final String ID = "_id";
  static final String TOPIC = EntryFields.TOPIC;
  static final String ORDERING_KEY = EntryFields.ORDERING_KEY;
  static final String PAYLOAD = EntryFields.PAYLOAD;
  static final String HEADERS = EntryFields.HEADERS;
  static final String STATUS = EntryFields.STATUS;
  static final String ATTEMPTS = EntryFields.ATTEMPTS;
  static final String CREATED_AT = EntryFields.CREATED_AT;
  static final String UPDATED_AT = EntryFields.UPDATED_AT;
  static final String AVAILABLE_AT = EntryFields.AVAILABLE_AT;
  /** The due index's key: the available or retry time, or the lease end; absent for terminal entries. */
  static final String DUE_AT = "dueAt";
  static final String FINISHED_AT = "finishedAt";
  static final String CLAIM_GENERATION = EntryFields.CLAIM_GENERATION;
  static final String OWNER = EntryFields.OWNER;
  static final String TOKEN_NONCE = EntryFields.TOKEN_NONCE;
  static final String CLAIMED_AT = EntryFields.CLAIMED_AT;
  static final String LEASE_UNTIL = EntryFields.LEASE_UNTIL;
  static final String LAST_ERROR = EntryFields.LAST_ERROR;
  static final String PROGRESS = EntryFields.PROGRESS;
  static final String DELIVERY_RECEIPT = EntryFields.DELIVERY_RECEIPT;
  static final String WRITE_STAMP = EntryFields.WRITE_STAMP;
  static final String REVISION = EntryFields.REVISION;

  /** The optional fields: absent from the document when the entry has no value for them. */
  static final List<String> OPTIONAL_FIELDS = List.of(ORDERING_KEY, DUE_AT, FINISHED_AT, OWNER, TOKEN_NONCE,
      CLAIMED_AT, LEASE_UNTIL, LAST_ERROR, PROGRESS, DELIVERY_RECEIPT, WRITE_STAMP);

  private EntryDocuments() {}

  /** The whole document of {@code entry}, {@code _id} included, optional fields only when set. */
  static Document toDocument(OutboxEntry entry) {
    OutboxMessage message = entry.message();
    Document document = new Document(ID, entry.id().value())
        .append(TOPIC, message.topic())
        .append(PAYLOAD, new Binary(message.payload()))
        .append(HEADERS, headerPairs(message.headers()))
        .append(STATUS, entry.status().name())
        .append(ATTEMPTS, entry.attempts())
        .append(CREATED_AT, Date.from(entry.createdAt()))
        .append(UPDATED_AT, Date.from(entry.updatedAt()))
        .append(AVAILABLE_AT, Date.from(entry.availableAt()))
        .append(CLAIM_GENERATION, entry.claimGeneration())
        .append(REVISION, entry.revision());
    message.orderingKey().ifPresent(key -> document.append(ORDERING_KEY, key));
    entry.dueAt().ifPresent(due -> document.append(DUE_AT, Date.from(due)));
    if (entry.status().isTerminal()) {
      document.append(FINISHED_AT, Date.from(entry.updatedAt()));
    }
    entry.currentClaim().ifPresent(claim -> document
        .append(OWNER, claim.owner().value())
        .append(TOKEN_NONCE, claim.token().nonce().toString())
        .append(CLAIMED_AT, Date.from(claim.claimedAt()))
        .append(LEASE_UNTIL, Date.from(claim.leaseUntil())));
    entry.lastError().ifPresent(text -> document.append(LAST_ERROR, text));
    entry.progress().ifPresent(text -> document.append(PROGRESS, text));
    entry.deliveryReceipt().ifPresent(text -> document.append(DELIVERY_RECEIPT, text));
    entry.lastWriteStamp().ifPresent(stamp -> document.append(WRITE_STAMP, stamp.toString()));
    return document;
  }

  /**
   * An update that turns the stored document into {@code entry}: {@code $set} of every present
   * field, {@code $unset} of every absent optional one.
   */
  static Document toUpdate(OutboxEntry entry) {
    Document set = toDocument(entry);
    set.remove(ID);
    Document unset = new Document();
    OPTIONAL_FIELDS.stream().filter(field -> !set.containsKey(field)).forEach(field -> unset.append(field, ""));
    Document update = new Document("$set", set);
    if (!unset.isEmpty()) {
      update.append("$unset", unset);
    }
    return update;
  }

  /**
   * The update that makes a transition from {@code before} to {@code after} on whatever the stored
   * document holds: {@code $set} of the fields the transition changed, {@code $unset} of the ones it
   * cleared, {@code $inc} of the revision. Fields the transition left alone (a save without progress
   * keeps the stored progress) stay as stored, so the update does not depend on the document being
   * exactly {@code before}; the state machine stays in the domain's {@code applyTo}.
   */
  static Document changeUpdate(OutboxEntry before, OutboxEntry after) {
    Document old = toDocument(before);
    Document next = toDocument(after);
    Document set = new Document();
    Document unset = new Document();
    next.forEach((field, value) -> {
      if (!field.equals(ID) && !field.equals(REVISION) && !Objects.equals(value, old.get(field))) {
        set.append(field, value);
      }
    });
    old.keySet().stream().filter(field -> !next.containsKey(field)).forEach(field -> unset.append(field, ""));
    Document update = new Document("$set", set).append("$inc", new Document(REVISION, after.revision() - before.revision()));
    if (!unset.isEmpty()) {
      update.append("$unset", unset);
    }
    return update;
  }

  private static List<Document> headerPairs(Map<String, String> headers) {
    List<Document> pairs = new ArrayList<>(headers.size());
    headers.forEach((name, value) -> pairs.add(new Document("name", name).append("value", value)));
    return pairs;
  }

  /**
   * Decodes a stored document.
   *
   * @throws UndecodableEntryException naming the entry when a field is missing or of a wrong type
   */
  static OutboxEntry toEntry(Document document) {
    EntryId id = entryId(document);
    try {
      return OutboxEntry.builder()
          .id(id)
          .message(OutboxMessage.restored(required(document, TOPIC, String.class),
              optional(document, ORDERING_KEY, String.class), required(document, PAYLOAD, Binary.class).getData(),
              headers(document)))
          .status(EntryStatus.valueOf(required(document, STATUS, String.class)))
          .attempts(required(document, ATTEMPTS, Number.class).intValue())
          .createdAt(instant(document, CREATED_AT))
          .updatedAt(instant(document, UPDATED_AT))
          .availableAt(instant(document, AVAILABLE_AT))
          .claimGeneration(required(document, CLAIM_GENERATION, Number.class).longValue())
          .currentClaim(currentClaim(document))
          .lastError(optional(document, LAST_ERROR, String.class))
          .progress(optional(document, PROGRESS, String.class))
          .deliveryReceipt(optional(document, DELIVERY_RECEIPT, String.class))
          .revision(required(document, REVISION, Number.class).longValue())
          .lastWriteStamp(stamp(document))
          .build();
    } catch (IllegalArgumentException | NullPointerException | ClassCastException problem) {
      throw new UndecodableEntryException(id, problem.getMessage(), problem);
    }
  }

  private static EntryId entryId(Document document) {
    Object id = document.get(ID);
    if (!(id instanceof String text)) {
      throw new UndecodableEntryException(EntryId.of("unknown"), "_id is " + id + ", not a string", null);
    }
    return EntryId.of(text);
  }

  private static CurrentClaim currentClaim(Document document) {
    String owner = optional(document, OWNER, String.class);
    String nonce = optional(document, TOKEN_NONCE, String.class);
    if (owner == null && nonce == null) {
      return null;
    }
    return new CurrentClaim(WorkerId.of(required(document, OWNER, String.class)),
        new ClaimToken(UUID.fromString(required(document, TOKEN_NONCE, String.class)),
            required(document, CLAIM_GENERATION, Number.class).longValue()),
        instant(document, CLAIMED_AT), instant(document, LEASE_UNTIL));
  }

  private static Map<String, String> headers(Document document) {
    Map<String, String> headers = new LinkedHashMap<>();
    for (Object pair : required(document, HEADERS, List.class)) {
      if (!(pair instanceof Document header)) {
        throw new IllegalArgumentException("field headers holds " + pair + ", not a {name, value} pair");
      }
      headers.put(required(header, "name", String.class), required(header, "value", String.class));
    }
    return headers;
  }

  private static WriteStamp stamp(Document document) {
    String stamp = optional(document, WRITE_STAMP, String.class);
    return stamp == null ? null : WriteStamp.parse(stamp);
  }

  private static Instant instant(Document document, String field) {
    return required(document, field, Date.class).toInstant();
  }

  private static <T> T required(Document document, String field, Class<T> type) {
    T value = optional(document, field, type);
    if (value == null) {
      throw new IllegalArgumentException("field " + field + " is missing");
    }
    return value;
  }

  private static <T> T optional(Document document, String field, Class<T> type) {
    Object value = document.get(field);
    if (value != null && !type.isInstance(value)) {
      throw new IllegalArgumentException("field " + field + " holds a " + value.getClass().getSimpleName()
          + ", not a " + type.getSimpleName());
    }
    return type.cast(value);
  }
}
