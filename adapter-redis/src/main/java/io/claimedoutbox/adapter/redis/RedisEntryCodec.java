package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.ClaimToken;
import io.claimedoutbox.domain.CurrentClaim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.HeaderText;
import io.claimedoutbox.port.UndecodableEntryException;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An entry as a Redis hash: text fields in UTF-8, instants as epoch milliseconds, the payload as
 * raw bytes, headers in {@link HeaderText} form. Optional fields are absent when empty.
 */
final class RedisEntryCodec {

  private RedisEntryCodec() {}

  /** The field/value pairs of a freshly appended entry, in HSET order. */
  static List<byte[]> appendFields(OutboxEntry entry) {
    List<byte[]> fields = new ArrayList<>();
    put(fields, "id", entry.id().value());
    put(fields, "topic", entry.topic());
    entry.orderingKey().ifPresent(key -> put(fields, "orderingKey", key));
    fields.add(bytes("payload"));
    fields.add(entry.payload());
    put(fields, "headers", HeaderText.encode(entry.headers()));
    put(fields, "status", entry.status().name());
    put(fields, "attempts", Integer.toString(entry.attempts()));
    put(fields, "createdAt", millis(entry.createdAt()));
    put(fields, "updatedAt", millis(entry.updatedAt()));
    put(fields, "availableAt", millis(entry.availableAt()));
    put(fields, "claimGeneration", Long.toString(entry.claimGeneration()));
    put(fields, "revision", Long.toString(entry.revision()));
    entry.lastWriteStamp().ifPresent(stamp -> put(fields, "writeStamp", stamp.toString()));
    return fields;
  }

  static String millis(Instant instant) {
    return Long.toString(instant.toEpochMilli());
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static void put(List<byte[]> fields, String name, String value) {
    fields.add(bytes(name));
    fields.add(bytes(value));
  }

  /** A flat HGETALL reply (field, value, field, value, …) from {@code from} on, as a map. */
  static Map<String, byte[]> hash(List<?> reply, int from) {
    Map<String, byte[]> hash = new HashMap<>();
    for (int i = from; i + 1 < reply.size(); i += 2) {
      hash.put(new String((byte[]) reply.get(i), StandardCharsets.UTF_8), (byte[]) reply.get(i + 1));
    }
    return hash;
  }

  /**
   * Decodes a stored hash.
   *
   * @param id the entry the hash was read for (names the entry in errors)
   * @throws UndecodableEntryException when a field is missing or malformed
   */
  static OutboxEntry toEntry(EntryId id, Map<String, byte[]> hash) {
    try {
      String storedId = text(hash, "id");
      if (!id.value().equals(storedId)) {
        throw new IllegalArgumentException("field id holds " + storedId);
      }
      return OutboxEntry.builder()
          .id(id)
          .topic(text(hash, "topic"))
          .orderingKey(optionalText(hash, "orderingKey"))
          .payload(required(hash, "payload"))
          .headers(HeaderText.decode(text(hash, "headers")))
          .status(EntryStatus.valueOf(text(hash, "status")))
          .attempts(Integer.parseInt(text(hash, "attempts")))
          .createdAt(instant(hash, "createdAt"))
          .updatedAt(instant(hash, "updatedAt"))
          .availableAt(instant(hash, "availableAt"))
          .claimGeneration(Long.parseLong(text(hash, "claimGeneration")))
          .currentClaim(currentClaim(hash))
          .lastError(optionalText(hash, "lastError"))
          .progress(optionalText(hash, "progress"))
          .deliveryReceipt(optionalText(hash, "deliveryReceipt"))
          .revision(Long.parseLong(text(hash, "revision")))
          .lastWriteStamp(hash.containsKey("writeStamp") ? WriteStamp.parse(text(hash, "writeStamp")) : null)
          .build();
    } catch (IllegalArgumentException | NullPointerException | DateTimeException problem) {
      throw new UndecodableEntryException(id, problem.getMessage(), problem);
    }
  }

  private static CurrentClaim currentClaim(Map<String, byte[]> hash) {
    if (!hash.containsKey("owner") && !hash.containsKey("tokenNonce")) {
      return null;
    }
    return new CurrentClaim(WorkerId.of(text(hash, "owner")),
        new ClaimToken(UUID.fromString(text(hash, "tokenNonce")), Long.parseLong(text(hash, "claimGeneration"))),
        instant(hash, "claimedAt"), instant(hash, "leaseUntil"));
  }

  private static Instant instant(Map<String, byte[]> hash, String field) {
    return Instant.ofEpochMilli(Long.parseLong(text(hash, field)));
  }

  private static byte[] required(Map<String, byte[]> hash, String field) {
    byte[] value = hash.get(field);
    if (value == null) {
      throw new IllegalArgumentException("field " + field + " is missing");
    }
    return value;
  }

  private static String text(Map<String, byte[]> hash, String field) {
    return new String(required(hash, field), StandardCharsets.UTF_8);
  }

  private static String optionalText(Map<String, byte[]> hash, String field) {
    byte[] value = hash.get(field);
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }
}
