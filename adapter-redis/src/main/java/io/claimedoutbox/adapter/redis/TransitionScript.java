package io.claimedoutbox.adapter.redis;

import static io.claimedoutbox.adapter.redis.ScriptCall.bytes;
import static io.claimedoutbox.adapter.redis.ScriptCall.text;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.DeadLetter;
import io.claimedoutbox.domain.DeliveryReceipt;
import io.claimedoutbox.domain.Instants;
import io.claimedoutbox.domain.LeaseRenewal;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.RetryableFailure;
import io.claimedoutbox.domain.StoredNotes;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.spi.EntryFields;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code transition.lua}: claimed transitions of one shard, each decided and written in one atomic
 * step (the store's {@code ATOMIC_EVALUATION}), eight arguments per element.
 */
final class TransitionScript {

  private static final LuaScript SCRIPT = LuaScript.load("transition");

  /**
   * The fields the script answers with, in its order ({@code ANSWERED} in the script): an entry's
   * state. The others never change after the append and come from the claim's snapshot, so a result
   * does not carry the payload back.
   */
  static final List<String> ANSWERED = List.of(EntryFields.STATUS, EntryFields.ATTEMPTS, EntryFields.UPDATED_AT,
      EntryFields.AVAILABLE_AT, EntryFields.CLAIM_GENERATION, EntryFields.OWNER, EntryFields.TOKEN_NONCE,
      EntryFields.CLAIMED_AT, EntryFields.LEASE_UNTIL, EntryFields.LAST_ERROR, EntryFields.PROGRESS,
      EntryFields.DELIVERY_RECEIPT, EntryFields.REVISION, EntryFields.WRITE_STAMP);

  private TransitionScript() {}

  static ScriptCall call(RedisKeys keys, int shard, Instant now, List<ClaimTransition> batch, List<WriteStamp> stamps) {
    List<byte[]> keyList = new ArrayList<>(2 + batch.size());
    keyList.add(bytes(keys.due(shard)));
    keyList.add(bytes(keys.inflight(shard)));
    List<byte[]> args = new ArrayList<>(1 + 8 * batch.size());
    args.add(bytes(EntryFields.millis(now)));
    for (int i = 0; i < batch.size(); i++) {
      Claim claim = batch.get(i).claim();
      keyList.add(bytes(keys.entry(shard, claim.entryId())));
      args.add(bytes(claim.entryId().value()));
      args.add(bytes(batch.get(i).kind().name()));
      args.add(bytes(claim.owner().value()));
      args.add(bytes(claim.token().nonce().toString()));
      args.add(bytes(stamps.get(i).toString()));
      args.addAll(requestArguments(batch.get(i).request(), now));
    }
    return new ScriptCall(SCRIPT, keyList, args);
  }

  /** The three arguments by transition, as the script's header lists them. */
  private static List<byte[]> requestArguments(TransitionRequest request, Instant now) {
    if (request instanceof DeliveryReceipt receipt) {
      return List.of(bytes(receipt.reference().isPresent() ? "1" : "0"),
          bytes(StoredNotes.of(receipt.reference().orElse(""))), bytes(""));
    }
    if (request instanceof RetryableFailure failure) {
      return List.of(bytes(EntryFields.millis(failure.retryAt())), bytes(StoredNotes.of(failure.error())), bytes(""));
    }
    if (request instanceof DeadLetter deadLetter) {
      return List.of(bytes(StoredNotes.of(deadLetter.reason())), bytes(""), bytes(""));
    }
    LeaseRenewal renewal = (LeaseRenewal) request;
    return List.of(bytes(EntryFields.millis(Instants.stored(now.plus(renewal.extension())))),
        bytes(renewal.progress().isPresent() ? "1" : "0"),
        bytes(StoredNotes.of(renewal.progress().orElse(""))));
  }

  /** The claim's unchanging fields with the state the script answered. */
  private static Map<String, byte[]> answeredFields(Claim claim, List<?> state) {
    Map<String, byte[]> fields = EntryFields.encodeUnchanging(claim.snapshot());
    for (int i = 0; i < ANSWERED.size(); i++) {
      if (state.get(i) != null) {
        fields.put(ANSWERED.get(i), (byte[]) state.get(i));
      }
    }
    return fields;
  }

  /** One result per element of the batch, in order. */
  static List<ClaimTransitionResult> results(Object reply, List<ClaimTransition> batch, String what) {
    List<?> replies = ScriptCall.body(reply, what);
    List<ClaimTransitionResult> results = new ArrayList<>(batch.size());
    for (int i = 0; i < batch.size(); i++) {
      results.add(result(batch.get(i).claim(), (List<?>) replies.get(i)));
    }
    return results;
  }

  private static ClaimTransitionResult result(Claim claim, List<?> reply) {
    String outcome = text(reply.get(0));
    if (outcome.equals("MISSING")) {
      return ClaimTransitionResult.missing(claim);
    }
    OutboxEntry entry = EntryFields.decode(claim.entryId(), answeredFields(claim, (List<?>) reply.get(1)));
    return switch (outcome) {
      case "APPLIED" -> ClaimTransitionResult.applied(entry);
      case "TERMINAL" -> ClaimTransitionResult.terminal(entry);
      case "STALE_CLAIM" -> ClaimTransitionResult.staleClaim(entry);
      default -> throw new IllegalStateException("the transition script answered an unknown outcome " + outcome);
    };
  }
}
