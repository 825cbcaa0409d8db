package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.UndecodableEntryException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An entry as a Redis hash: exactly the fields of {@link EntryFields}, whose names the Lua scripts
 * use too. This class only converts between the hash and the flat lists Redis speaks.
 */
final class RedisEntryCodec {

  private RedisEntryCodec() {}

  /** The field/value pairs of an entry, in HSET order. */
  static List<byte[]> appendFields(OutboxEntry entry) {
    List<byte[]> flat = new ArrayList<>();
    EntryFields.encode(entry).forEach((name, value) -> {
      flat.add(bytes(name));
      flat.add(value);
    });
    return flat;
  }

  static String millis(Instant instant) {
    return EntryFields.millis(instant);
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
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
    return EntryFields.decode(id, hash);
  }
}
