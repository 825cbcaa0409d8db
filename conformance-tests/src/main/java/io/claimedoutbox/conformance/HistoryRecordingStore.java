package io.claimedoutbox.conformance;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.ClaimTransition;
import io.claimedoutbox.domain.ClaimTransitionResult;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.TransitionRequest;
import io.claimedoutbox.domain.WorkerId;
import io.claimedoutbox.port.CommitNotifications;
import io.claimedoutbox.port.ForwardingOutboxStore;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import java.time.Duration;
import java.util.HashSet;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A store decorator that records everything that passes through it — claims handed out,
 * transition results, successful deletes, and how long each transition call took — into a
 * {@link TransitionHistory}, so any workload (a drain, a race, a benchmark) can be checked with
 * the suite's history rules afterwards. Thread-safe.
 */
public final class HistoryRecordingStore extends ForwardingOutboxStore {

  private final TransitionHistory history;
  private final ConcurrentLinkedQueue<Long> transitionNanos = new ConcurrentLinkedQueue<>();
  /** Entries whose claim on append was recorded: every subscriber hears it, it is one claim. */
  private final Set<EntryId> recordedOnAppend = new HashSet<>();

  /**
   * @param delegate the store that does the work
   * @param history where to record
   */
  public HistoryRecordingStore(OutboxClaimOutcomeStore delegate, TransitionHistory history) {
    super(delegate);
    this.history = Arguments.requireNonNull(history, "history");
  }

  /** @return the durations of every transition call so far, in nanoseconds */
  public List<Long> transitionNanos() {
    return List.copyOf(transitionNanos);
  }

  @Override
  public ClaimTransitionResult tryTransition(Claim claim, TransitionRequest request) {
    long started = System.nanoTime();
    long invokedAt = history.tick();
    ClaimTransitionResult result = delegate().tryTransition(claim, request);
    long returnedAt = history.tick();
    transitionNanos.add(System.nanoTime() - started);
    history.recordAttempt(new TransitionHistory.Attempt(claim, request.kind(), result, invokedAt, returnedAt));
    return result;
  }

  /** Records each element's result; the batch's duration counts once per element. */
  @Override
  public List<ClaimTransitionResult> tryTransitionAll(List<ClaimTransition> transitions) {
    long started = System.nanoTime();
    long invokedAt = history.tick();
    List<ClaimTransitionResult> results = delegate().tryTransitionAll(transitions);
    long returnedAt = history.tick();
    long elapsed = System.nanoTime() - started;
    for (int i = 0; i < results.size(); i++) {
      transitionNanos.add(elapsed);
      ClaimTransition transition = transitions.get(i);
      history.recordAttempt(new TransitionHistory.Attempt(transition.claim(), transition.kind(), results.get(i),
          invokedAt, returnedAt));
    }
    return results;
  }

  @Override
  public List<Claim> claimDue(WorkerId worker, int maxEntries, long maxPayloadBytes, Duration lease) {
    List<Claim> claims = delegate().claimDue(worker, maxEntries, maxPayloadBytes, lease);
    history.recordClaims(claims);
    return claims;
  }

  @Override
  public List<Claim> claimNextOfKey(WorkerId worker, String orderingKey, Duration lease) {
    List<Claim> claims = delegate().claimNextOfKey(worker, orderingKey, lease);
    history.recordClaims(claims);
    return claims;
  }

  @Override
  public List<Claim> claimNextOfKeys(WorkerId worker, Collection<String> orderingKeys, Duration lease) {
    List<Claim> claims = delegate().claimNextOfKeys(worker, orderingKeys, lease);
    history.recordClaims(claims);
    return claims;
  }

  @Override
  public List<Claim> claimAppended(WorkerId worker, List<OutboxEntry> appended, Duration lease) {
    List<Claim> claims = delegate().claimAppended(worker, appended, lease);
    history.recordClaims(claims);
    return claims;
  }

  /** Records the claims written on append (handed to a drain by the commit's report) as claims. */
  @Override
  public CommitNotifications commitNotifications() {
    CommitNotifications notifications = delegate().commitNotifications();
    return listener -> notifications.subscribe(new RecordingListener(Arguments.requireNonNull(listener, "listener")));
  }

  private final class RecordingListener implements CommitNotifications.Listener {

    private final CommitNotifications.Listener listener;

    RecordingListener(CommitNotifications.Listener listener) {
      this.listener = listener;
    }

    @Override
    public void entriesCommitted(List<OutboxEntry> appended) {
      List<Claim> claimedOnAppend = appended.stream().filter(entry -> entry.currentClaim().isPresent())
          .map(Claim::of).toList();
      synchronized (recordedOnAppend) {
        claimedOnAppend.stream().filter(claim -> recordedOnAppend.add(claim.entryId()))
            .forEach(claim -> history.recordClaims(List.of(claim)));
      }
      listener.entriesCommitted(appended);
    }

    @Override
    public Optional<CommitNotifications.ClaimOnAppend> takeOnAppend(OutboxEntry entry) {
      return listener.takeOnAppend(entry);
    }

    @Override
    public void notCommitted(OutboxEntry written) {
      listener.notCommitted(written);
    }
  }

  @Override
  public boolean delete(EntryId id) {
    boolean deleted = delegate().delete(id);
    if (deleted) {
      history.recordDeletion(id);
    }
    return deleted;
  }
}
