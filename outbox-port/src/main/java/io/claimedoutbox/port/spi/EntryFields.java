package io.claimedoutbox.port.spi;

import io.claimedoutbox.domain.ClaimToken;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.OutboxMessage;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.UndecodableEntryException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * An entry as named fields — the one field-name table for backends that keep an entry as a hash,
 * a document or columns, and the codec between the two. Text is UTF-8, instants are epoch
 * milliseconds in decimal, the payload is its raw bytes, headers are in {@link HeaderText} form.
 * Optional fields (ordering key, claim, notes, write stamp) are absent when empty.
 *
 * <p>Backends whose scripts or queries name fields (a Redis Lua script, say) use exactly these
 * names, so a test can check every name they use is one of {@link #ALL}.
 */
public final class EntryFields {

  /** The entry id. */
  public static final String ID = "id";
  /** The message's topic. */
  public static final String TOPIC = "topic";
  /** The message's ordering key (optional). */
  public static final String ORDERING_KEY = "orderingKey";
  /** The message's payload. */
  public static final String PAYLOAD = "payload";
  /** The message's headers. */
  public static final String HEADERS = "headers";
  /** The status name. */
  public static final String STATUS = "status";
  /** The number of claims handed out. */
  public static final String ATTEMPTS = "attempts";
  /** The append time. */
  public static final String CREATED_AT = "createdAt";
  /** The last write time. */
  public static final String UPDATED_AT = "updatedAt";
  /** The available or retry time. */
  public static final String AVAILABLE_AT = "availableAt";
  /** The newest handed-out claim generation. */
  public static final String CLAIM_GENERATION = "claimGeneration";
  /** The current claim's owner (present exactly when claimed). */
  public static final String OWNER = "owner";
  /** The current claim's token nonce. */
  public static final String TOKEN_NONCE = "tokenNonce";
  /** The current claim's start. */
  public static final String CLAIMED_AT = "claimedAt";
  /** The current claim's lease end. */
  public static final String LEASE_UNTIL = "leaseUntil";
  /** The last error or dead-letter reason (optional). */
  public static final String LAST_ERROR = "lastError";
  /** The holder's recorded progress (optional). */
  public static final String PROGRESS = "progress";
  /** The delivery receipt (optional). */
  public static final String DELIVERY_RECEIPT = "deliveryReceipt";
  /** The revision. */
  public static final String REVISION = "revision";
  /** The stamp of the write that made the revision (optional). */
  public static final String WRITE_STAMP = "writeStamp";

  /**
   * The fields every stored entry has, whatever its status: a store that writes a transition without
   * reading the row back first checks them (and the status) before it writes, so a damaged row fails
   * its call, and a batch meeting one, with nothing written to it.
   */
  public static final List<String> ALWAYS_PRESENT = List.of(ID, TOPIC, PAYLOAD, HEADERS, STATUS, ATTEMPTS, CREATED_AT,
      UPDATED_AT, AVAILABLE_AT, CLAIM_GENERATION, REVISION);

  /** Every field name, for checks that a backend's scripts use no other. */
  public static final Set<String> ALL = Set.of(ID, TOPIC, ORDERING_KEY, PAYLOAD, HEADERS, STATUS, ATTEMPTS,
      CREATED_AT, UPDATED_AT, AVAILABLE_AT, CLAIM_GENERATION, OWNER, TOKEN_NONCE, CLAIMED_AT, LEASE_UNTIL,
      LAST_ERROR, PROGRESS, DELIVERY_RECEIPT, REVISION, WRITE_STAMP);

  private EntryFields() {}

  /**
   * The fields of an entry, in a stable order: the ones an append sets once, then
   * {@link #encodeState}.
   *
   * @param entry the entry
   * @return field name to stored bytes; a new, modifiable map
   */
  public static Map<String, byte[]> encode(OutboxEntry entry) {
    Map<String, byte[]> fields = encodeUnchanging(entry);
    fields.putAll(encodeState(entry));
    return fields;
  }

  /**
   * The fields an append sets once and no later write changes — the id, the message (topic,
   * ordering key, payload, headers) and the creation time — so a store that answers a write with
   * the new state alone can complete it from the entry the caller holds.
   *
   * @param entry the entry
   * @return field name to stored bytes; a new, modifiable map
   */
  public static Map<String, byte[]> encodeUnchanging(OutboxEntry entry) {
    Map<String, byte[]> fields = new LinkedHashMap<>();
    OutboxMessage message = entry.message();
    put(fields, ID, entry.id().value());
    put(fields, TOPIC, message.topic());
    message.orderingKey().ifPresent(key -> put(fields, ORDERING_KEY, key));
    fields.put(PAYLOAD, message.payload());
    put(fields, HEADERS, HeaderText.encode(message.headers()));
    put(fields, CREATED_AT, millis(entry.createdAt()));
    return fields;
  }

  /**
   * The fields a write after the append may change — every field but the message's, the id and the
   * creation time — so a claim or transition can send the entry's new state without its payload.
   *
   * @param entry the entry
   * @return field name to stored bytes; a new, modifiable map
   */
  public static Map<String, byte[]> encodeState(OutboxEntry entry) {
    Map<String, byte[]> fields = new LinkedHashMap<>();
    put(fields, STATUS, entry.status().name());
    put(fields, ATTEMPTS, Integer.toString(entry.attempts()));
    put(fields, UPDATED_AT, millis(entry.updatedAt()));
    put(fields, AVAILABLE_AT, millis(entry.availableAt()));
    put(fields, CLAIM_GENERATION, Long.toString(entry.claimGeneration()));
    entry.currentClaim().ifPresent(claim -> {
      put(fields, OWNER, claim.owner().value());
      put(fields, TOKEN_NONCE, claim.token().nonce().toString());
      put(fields, CLAIMED_AT, millis(claim.claimedAt()));
      put(fields, LEASE_UNTIL, millis(claim.leaseUntil()));
    });
    entry.lastError().ifPresent(text -> put(fields, LAST_ERROR, text));
    entry.progress().ifPresent(text -> put(fields, PROGRESS, text));
    entry.deliveryReceipt().ifPresent(text -> put(fields, DELIVERY_RECEIPT, text));
    put(fields, REVISION, Long.toString(entry.revision()));
    entry.lastWriteStamp().ifPresent(stamp -> put(fields, WRITE_STAMP, stamp.toString()));
    return fields;
  }

  /** Receives the fields a write changes: each field it sets anew, and each it removes. */
  public interface FieldChanges {
    /**
     * @param name a field {@code next} stores with another value, or that {@code basis} lacked
     * @param value its stored bytes
     */
    void set(String name, byte[] value);

    /** @param name a field {@code basis} stores and {@code next} lacks */
    void remove(String name);
  }

  /**
   * The state fields ({@link #encodeState}) a write that turns {@code basis} into {@code next} must
   * set and remove, compared as values and encoded only where they differ: a transition changes a
   * handful of an entry's fields, and a store that writes fields one by one sends just those.
   *
   * @param basis the entry as stored
   * @param next the same entry after the write
   * @param changes receives each change, in {@link #encodeState}'s order
   */
  public static void encodeChanges(OutboxEntry basis, OutboxEntry next, FieldChanges changes) {
    if (basis.status() != next.status()) {
      changes.set(STATUS, bytes(next.status().name()));
    }
    if (basis.attempts() != next.attempts()) {
      changes.set(ATTEMPTS, bytes(Integer.toString(next.attempts())));
    }
    changeInstant(UPDATED_AT, basis.updatedAt(), next.updatedAt(), changes);
    changeInstant(AVAILABLE_AT, basis.availableAt(), next.availableAt(), changes);
    if (basis.claimGeneration() != next.claimGeneration()) {
      changes.set(CLAIM_GENERATION, bytes(Long.toString(next.claimGeneration())));
    }
    CurrentClaim before = basis.currentClaim().orElse(null);
    CurrentClaim after = next.currentClaim().orElse(null);
    if (after == null) {
      if (before != null) {
        List.of(OWNER, TOKEN_NONCE, CLAIMED_AT, LEASE_UNTIL).forEach(changes::remove);
      }
    } else {
      if (before == null || !before.owner().equals(after.owner())) {
        changes.set(OWNER, bytes(after.owner().value()));
      }
      if (before == null || !before.token().nonce().equals(after.token().nonce())) {
        changes.set(TOKEN_NONCE, bytes(after.token().nonce().toString()));
      }
      changeInstant(CLAIMED_AT, before == null ? null : before.claimedAt(), after.claimedAt(), changes);
      changeInstant(LEASE_UNTIL, before == null ? null : before.leaseUntil(), after.leaseUntil(), changes);
    }
    changeText(LAST_ERROR, basis.lastError().orElse(null), next.lastError().orElse(null), changes);
    changeText(PROGRESS, basis.progress().orElse(null), next.progress().orElse(null), changes);
    changeText(DELIVERY_RECEIPT, basis.deliveryReceipt().orElse(null), next.deliveryReceipt().orElse(null), changes);
    if (basis.revision() != next.revision()) {
      changes.set(REVISION, bytes(Long.toString(next.revision())));
    }
    changeText(WRITE_STAMP, basis.lastWriteStamp().map(WriteStamp::toString).orElse(null),
        next.lastWriteStamp().map(WriteStamp::toString).orElse(null), changes);
  }

  private static void changeInstant(String name, Instant before, Instant after, FieldChanges changes) {
    if (!after.equals(before)) {
      changes.set(name, bytes(millis(after)));
    }
  }

  private static void changeText(String name, String before, String after, FieldChanges changes) {
    if (after == null) {
      if (before != null) {
        changes.remove(name);
      }
    } else if (!after.equals(before)) {
      changes.set(name, bytes(after));
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * An instant as stored.
   *
   * @param instant the instant
   * @return its epoch milliseconds in decimal
   */
  public static String millis(Instant instant) {
    return Long.toString(instant.toEpochMilli());
  }

  /**
   * Decodes stored fields.
   *
   * @param id the entry the fields were read for; names the entry in errors
   * @param fields field name to stored bytes
   * @return the entry
   * @throws UndecodableEntryException when a field is missing, malformed, or the fields contradict
   *     each other
   */
  public static OutboxEntry decode(EntryId id, Map<String, byte[]> fields) {
    try {
      String storedId = text(fields, ID);
      if (!id.value().equals(storedId)) {
        throw new IllegalArgumentException("field id holds " + storedId);
      }
      return OutboxEntry.builder()
          .id(id)
          .message(OutboxMessage.restored(text(fields, TOPIC), optionalText(fields, ORDERING_KEY),
              required(fields, PAYLOAD), HeaderText.decode(text(fields, HEADERS))))
          .status(EntryStatus.valueOf(text(fields, STATUS)))
          .attempts(Integer.parseInt(text(fields, ATTEMPTS)))
          .createdAt(instant(fields, CREATED_AT))
          .updatedAt(instant(fields, UPDATED_AT))
          .availableAt(instant(fields, AVAILABLE_AT))
          .claimGeneration(Long.parseLong(text(fields, CLAIM_GENERATION)))
          .currentClaim(currentClaim(fields))
          .lastError(optionalText(fields, LAST_ERROR))
          .progress(optionalText(fields, PROGRESS))
          .deliveryReceipt(optionalText(fields, DELIVERY_RECEIPT))
          .revision(Long.parseLong(text(fields, REVISION)))
          .lastWriteStamp(fields.containsKey(WRITE_STAMP) ? WriteStamp.parse(text(fields, WRITE_STAMP)) : null)
          .build();
    } catch (IllegalArgumentException | NullPointerException | DateTimeException problem) {
      throw new UndecodableEntryException(id, problem.getMessage(), problem);
    }
  }

  private static CurrentClaim currentClaim(Map<String, byte[]> fields) {
    if (!fields.containsKey(OWNER) && !fields.containsKey(TOKEN_NONCE)) {
      return null;
    }
    return new CurrentClaim(WorkerId.of(text(fields, OWNER)),
        new ClaimToken(UUID.fromString(text(fields, TOKEN_NONCE)), Long.parseLong(text(fields, CLAIM_GENERATION))),
        instant(fields, CLAIMED_AT), instant(fields, LEASE_UNTIL));
  }

  private static void put(Map<String, byte[]> fields, String name, String value) {
    fields.put(name, value.getBytes(StandardCharsets.UTF_8));
  }

  private static Instant instant(Map<String, byte[]> fields, String name) {
    return Instant.ofEpochMilli(Long.parseLong(text(fields, name)));
  }

  private static byte[] required(Map<String, byte[]> fields, String name) {
    byte[] value = fields.get(name);
    if (value == null) {
      throw new IllegalArgumentException("field " + name + " is missing");
    }
    return value;
  }

  private static String text(Map<String, byte[]> fields, String name) {
    return new String(required(fields, name), StandardCharsets.UTF_8);
  }

  private static String optionalText(Map<String, byte[]> fields, String name) {
    byte[] value = fields.get(name);
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }
}
