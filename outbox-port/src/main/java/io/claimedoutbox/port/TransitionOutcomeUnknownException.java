package io.claimedoutbox.port;

import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.TransitionKind;
import io.claimedoutbox.domain.WriteStamp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A transition's write was sent but its result could not be learned (the commit acknowledgement
 * was lost and the row could not be read again). The transition may or may not have landed; it
 * is <em>never</em> to be treated as applied. The exception carries the claim and the attempt's
 * write stamp so the caller can resolve it later: the write landed exactly when the stored entry's
 * last write stamp equals {@link #writeStamp()} (or a later revision was written on top of it).
 *
 * <p>A batch call that throws it says, for every element it sent a write for, which stamp that
 * write carried ({@link #sentWriteStamp}), so a caller settles each element by reading it: never by
 * asking again, which would answer {@code TERMINAL} for its own landed delivery.
 */
public class TransitionOutcomeUnknownException extends OutboxStoreException {

  private static final long serialVersionUID = 1L;

  private final transient Claim claim;
  private final TransitionKind transition;
  private final transient WriteStamp writeStamp;
  private final transient Map<EntryId, WriteStamp> sentWrites;

  /**
   * @param claim the claim the transition was asked under
   * @param transition which transition
   * @param writeStamp the stamp the attempt would have stored
   * @param cause the failure that hid the outcome
   */
  public TransitionOutcomeUnknownException(
      Claim claim, TransitionKind transition, WriteStamp writeStamp, Throwable cause) {
    this(claim, transition, writeStamp, Map.of(claim.entryId(), writeStamp), cause);
  }

  private TransitionOutcomeUnknownException(Claim claim, TransitionKind transition, WriteStamp writeStamp,
      Map<EntryId, WriteStamp> sentWrites, Throwable cause) {
    super("outcome of " + transition + " for outbox entry " + claim.entryId() + " by worker "
        + claim.owner() + " is unknown: the write was sent but not confirmed (write stamp "
        + writeStamp + ")" + (sentWrites.size() > 1 ? ", and so are the other "
        + (sentWrites.size() - 1) + " writes of its batch" : ""), cause);
    this.claim = claim;
    this.transition = transition;
    this.writeStamp = writeStamp;
    this.sentWrites = Map.copyOf(sentWrites);
  }

  /**
   * A batch ({@link OutboxClaimOutcomeStore#tryTransitionAll}) whose outcome is unknown as a whole:
   * its writes were sent, and which of them landed cannot be learned now. Each element's fate is
   * read later by its stamp ({@link #sentWriteStamp}).
   *
   * @param batch the batch, as asked
   * @param stamps the stamp each element's write carried, in the batch's order
   * @param cause the failure that hid the outcome
   * @return the exception, naming the batch's first element
   */
  public static TransitionOutcomeUnknownException ofBatch(List<ClaimTransition> batch, List<WriteStamp> stamps,
      Throwable cause) {
    Map<EntryId, WriteStamp> sent = new LinkedHashMap<>();
    for (int i = 0; i < batch.size(); i++) {
      sent.put(batch.get(i).entryId(), stamps.get(i));
    }
    return new TransitionOutcomeUnknownException(batch.get(0).claim(), batch.get(0).kind(), stamps.get(0), sent, cause);
  }

  /**
   * A batch that failed part way: the writes in {@code sent} (and, when {@code cause} is itself an
   * unknown outcome, the writes it names) were sent, each with its stamp; an element among neither
   * was never written by the call.
   *
   * @param batch the batch, as asked
   * @param sent the elements already written or sent, with their stamps; not empty, or {@code cause}
   *     an unknown outcome
   * @param cause the failure that stopped the batch
   * @return the exception, naming the batch's first element that was sent
   */
  public static TransitionOutcomeUnknownException ofPartialBatch(List<ClaimTransition> batch,
      Map<EntryId, WriteStamp> sent, OutboxStoreException cause) {
    Map<EntryId, WriteStamp> all = new LinkedHashMap<>(sent);
    if (cause instanceof TransitionOutcomeUnknownException unknown) {
      all.putAll(unknown.sentWrites);
    }
    ClaimTransition named = batch.stream().filter(transition -> all.containsKey(transition.entryId())).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("sent names no element of the batch"));
    return new TransitionOutcomeUnknownException(named.claim(), named.kind(), all.get(named.entryId()), all, cause);
  }

  /** @return the claim the transition was asked under (a batch's: its first unknown element's) */
  public Claim claim() {
    return claim;
  }

  /** @return which transition */
  public TransitionKind transition() {
    return transition;
  }

  /** @return the stamp the attempt would have stored */
  public WriteStamp writeStamp() {
    return writeStamp;
  }

  /**
   * The stamp of the write the failed call sent for an entry: the write landed exactly when the
   * stored entry carries it (or a later revision was written on top of it by the same holder).
   *
   * @param id an entry of the call
   * @return the stamp, empty when the call sent no write for the entry (so it wrote nothing to it)
   */
  public Optional<WriteStamp> sentWriteStamp(EntryId id) {
    return Optional.ofNullable(sentWrites.get(id));
  }
}
