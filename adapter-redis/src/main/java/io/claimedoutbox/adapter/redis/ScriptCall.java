package io.claimedoutbox.adapter.redis;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.UndecodableEntryException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * One prepared run of a Lua script: the script, and its keys and arguments in the layout the
 * script's header documents. The typed script classes ({@link AppendScript}, {@link DuePeek}, {@link ReadScript},
 * {@link ClaimScript}, {@link ConditionalWriteScript}, {@link DeleteScript}) build these and read the
 * replies; the store only decides where and how often to run them.
 *
 * <p>Every script answers with a list whose first element says how it went: {@code OK} (the rest is
 * the script's answer), {@code UNDECODABLE id problem} (a damaged row, nothing written),
 * {@code DUPLICATE id} (an append over a stored id, nothing written) or {@code BAD_REQUEST what}.
 * {@link #body} turns the failures into the port's exceptions, so no error text is matched.
 */
record ScriptCall(LuaScript script, List<byte[]> keys, List<byte[]> args) {

  Object run(UnifiedJedis redis) {
    return script.run(redis, keys, args);
  }

  /**
   * The answer of a reply whose status is {@code OK}.
   *
   * @param reply the script's reply
   * @param what the call, for messages
   * @return the elements after the status
   * @throws UndecodableEntryException for {@code UNDECODABLE}
   * @throws OutboxStoreException for {@code DUPLICATE}
   * @throws IllegalStateException for {@code BAD_REQUEST} or an unknown status: a bug, not bad data
   */
  static List<?> body(Object reply, String what) {
    List<?> list = (List<?>) reply;
    String status = text(list.get(0));
    return switch (status) {
      case "OK", "REPEATED" -> list.subList(1, list.size());
      case "UNDECODABLE" -> throw new UndecodableEntryException(EntryId.of(text(list.get(1))), text(list.get(2)), null);
      case "DUPLICATE" -> throw new OutboxStoreException(what + ": an entry id is stored already: " + text(list.get(1)));
      default -> throw new IllegalStateException(what + ": the script answered " + status
          + (list.size() > 1 ? " " + text(list.get(1)) : ""));
    };
  }

  /** Whether the reply is a claim script's answer for a call that ran before. */
  static boolean isRepeated(Object reply) {
    return "REPEATED".equals(text(((List<?>) reply).get(0)));
  }

  static String text(Object value) {
    return value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(value);
  }

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
