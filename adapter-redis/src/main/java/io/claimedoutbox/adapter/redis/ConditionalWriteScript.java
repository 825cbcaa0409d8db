package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.WriteAnswer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code write.lua}: claimed transitions of one shard written where each entry is still at the
 * expected revision and held under its claim. Everything the script writes is computed here: the
 * state fields that change ({@link EntryFields#encodeState} of the next entry against the basis),
 * the fields that go, and the index moves the new status makes; every key the script touches is in
 * its KEYS. The outcome of an element that was not written is the transition kernel's.
 */
final class ConditionalWriteScript {

  private static final LuaScript SCRIPT = LuaScript.load("write");

  private ConditionalWriteScript() {}

  static ScriptCall call(RedisKeys keys, int shard, List<ConditionalWrite> writes) {
    List<byte[]> entryKeys = new ArrayList<>(writes.size());
    Map<String, Integer> indexKeys = new LinkedHashMap<>();
    // the script finds the shard's due and held indexes right after the entries' keys
    indexKeys.put(keys.due(shard), writes.size() + 1);
    indexKeys.put(keys.held(shard), writes.size() + 2);
    List<byte[]> args = new ArrayList<>(1 + 16 * writes.size());
    args.add(bytes(Integer.toString(writes.size())));
    for (ConditionalWrite write : writes) {
      Claim claim = write.claim();
      entryKeys.add(bytes(keys.entry(shard, write.entryId())));
      args.add(bytes(write.entryId().value()));
      args.add(bytes(Long.toString(write.expectedRevision())));
      args.add(bytes(claim.owner().value()));
      args.add(bytes(claim.token().nonce().toString()));
      addChangedFields(args, write.basis(), write.next());
      List<IndexMove> moves = IndexMove.of(keys, shard, write.next());
      args.add(bytes(Integer.toString(moves.size())));
      for (IndexMove move : moves) {
        // index keys follow the entries' in KEYS, which the script counts from 1
        int keyIndex = indexKeys.computeIfAbsent(move.key(), key -> writes.size() + indexKeys.size() + 1);
        move.addTo(args, keyIndex);
      }
    }
    List<byte[]> keyList = new ArrayList<>(entryKeys.size() + indexKeys.size());
    keyList.addAll(entryKeys);
    indexKeys.keySet().forEach(key -> keyList.add(bytes(key)));
    return new ScriptCall(SCRIPT, keyList, args);
  }

  /** The state fields {@code next} sets anew, then the ones it no longer has. */
  private static void addChangedFields(List<byte[]> args, OutboxEntry basis, OutboxEntry next) {
    List<byte[]> set = new ArrayList<>(16);
    List<byte[]> removed = new ArrayList<>(6);
    EntryFields.encodeChanges(basis, next, new EntryFields.FieldChanges() {
      @Override
      public void set(String name, byte[] value) {
        set.add(bytes(name));
        set.add(value);
      }

      @Override
      public void remove(String name) {
        removed.add(bytes(name));
      }
    });
    args.add(bytes(Integer.toString(set.size() / 2)));
    args.addAll(set);
    args.add(bytes(Integer.toString(removed.size())));
    args.addAll(removed);
  }

  /** One answer per write of the call, in order. */
  static List<WriteAnswer> answers(Object reply, String what) {
    List<?> body = ScriptCall.body(reply, what);
    List<WriteAnswer> answers = new ArrayList<>(body.size());
    for (Object written : body) {
      answers.add(((Long) written) == 1L ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
    }
    return answers;
  }
}
