package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.port.spi.EntryFields;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An entry as a Redis hash: exactly the fields of {@link EntryFields}, whose names the Lua scripts
 * use too. This class only converts between those fields and the flat lists Redis speaks; encoding
 * and decoding values is {@link EntryFields}'s.
 */
final class RedisEntryCodec {

  private RedisEntryCodec() {}

  /** Fields as the flat field, value, field, value… list HSET takes. */
  static List<byte[]> flat(Map<String, byte[]> fields) {
    List<byte[]> flat = new ArrayList<>(2 * fields.size());
    fields.forEach((name, value) -> {
      flat.add(bytes(name));
      flat.add(value);
    });
    return flat;
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** A typed HGETALL reply (field names as bytes) as a map by field name. */
  static Map<String, byte[]> byName(Map<byte[], byte[]> raw) {
    Map<String, byte[]> hash = new HashMap<>(raw.size() * 2);
    raw.forEach((field, value) -> hash.put(new String(field, StandardCharsets.UTF_8), value));
    return hash;
  }

  /** A flat HGETALL reply (field, value, field, value, …) from {@code from} on, as a map. */
  static Map<String, byte[]> hash(List<?> reply, int from) {
    Map<String, byte[]> hash = new HashMap<>();
    for (int i = from; i + 1 < reply.size(); i += 2) {
      hash.put(new String((byte[]) reply.get(i), StandardCharsets.UTF_8), (byte[]) reply.get(i + 1));
    }
    return hash;
  }
}
