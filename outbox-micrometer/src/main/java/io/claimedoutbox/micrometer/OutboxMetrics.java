package io.claimedoutbox.micrometer;

/**
 * The default names of the meters {@link OutboxStoreMeters}, {@link BacklogGauges} and
 * {@link DrainMeters} record ({@link OutboxMeterNames} changes them) and of their tags. Tag values are
 * lower case: outcomes {@code applied}, {@code stale_claim}, {@code terminal},
 * {@code concurrency_lost}, {@code missing}; durable statuses {@code pending}, {@code claimed},
 * {@code failed}, {@code delivered}, {@code dead_lettered}, or {@code missing} when no row exists;
 * transitions {@code delivered}, {@code failed}, {@code dead_lettered}, {@code save}.
 */
public final class OutboxMetrics {

  /**
   * Counter: one increment per claimed transition attempt that got an outcome, tagged
   * {@link #OUTCOME}, {@link #DURABLE_STATUS} and {@link #TRANSITION}. Only {@code outcome=applied}
   * counts writes this process made.
   */
  public static final String TRANSITION_ATTEMPTS = "outbox.claim_transition_attempts";

  /**
   * Timer: how long each transition call took, one record per call (a batch is one call), tagged
   * {@link #TRANSITION} (the kind, or {@code mixed} for a batch of several kinds) and
   * {@link #OUTCOME} (a single call's outcome; for a batch {@code applied} when every element was,
   * else {@code not_applied}; {@code error} when the call threw). Also the name of the call's
   * observation ({@link OutboxStoreObservations}): with one, the observation's meter handler records
   * this timer (adding its {@code error} tag) and {@link OutboxStoreMeters} records none of its own.
   */
  public static final String TRANSITION_DURATION = "outbox.claim_transition_duration";

  /**
   * Counter: transition calls that threw instead of answering (infrastructure failures, unknown
   * outcomes), tagged {@link #TRANSITION} and {@link #EXCEPTION} (the exception's simple class name).
   */
  public static final String TRANSITION_ERRORS = "outbox.claim_transition_errors";

  /** Counter: claims handed out, tagged {@link #CALL} ({@code claim_due}, {@code claim_by_keys}, {@code claim_appended}, {@code claim_on_append}). */
  public static final String CLAIMED_ENTRIES = "outbox.claimed_entries";

  /** Timer: how long each claim call took, tagged {@link #CALL} and {@link #OUTCOME} ({@code ok} or {@code error}). */
  public static final String CLAIM_DURATION = "outbox.claim_duration";

  /** Counter: entries appended (or, in a caller's transaction, written for its commit). */
  public static final String APPENDED_ENTRIES = "outbox.appended_entries";

  /** Timer: how long each append call took, tagged {@link #OUTCOME} ({@code ok} or {@code error}). */
  public static final String APPEND_DURATION = "outbox.append_duration";

  /**
   * The prefix of a drain's meters ({@link DrainMeters} lists them): gauges such as
   * {@code outbox.drain.in_flight} and function counters such as {@code outbox.drain.handled},
   * each tagged {@link #DRAIN_WORKER}.
   */
  public static final String DRAIN = "outbox.drain";

  /** Gauge: entries in one status ({@link #TAG_STATUS}), from {@link BacklogGauges}. */
  public static final String ENTRIES = "outbox.entries";

  /** Gauge: seconds the oldest due entry has waited, from {@link BacklogGauges}. */
  public static final String OLDEST_DUE_AGE = "outbox.oldest_due_age";

  /** Tag of {@link #ENTRIES}: the status, lower case. */
  public static final String TAG_STATUS = "status";

  /** Tag key: the outcome of the attempt. */
  public static final String OUTCOME = "outcome";
  /** Tag key: the status stored after the attempt, {@link #NO_ROW} when there is no row. */
  public static final String DURABLE_STATUS = "durable_status";
  /** Tag key: which transition was asked for. */
  public static final String TRANSITION = "transition";
  /** Tag key: which claim call. */
  public static final String CALL = "call";
  /** Tag key of a drain's meters: the drain's worker id. */
  public static final String DRAIN_WORKER = "worker";
  /** The {@link #OUTCOME} value of a claim or append that answered. */
  public static final String OK_OUTCOME = "ok";
  /** Tag key: the exception's simple class name. */
  public static final String EXCEPTION = "exception";

  /** The {@link #DURABLE_STATUS} value when no row exists. */
  public static final String NO_ROW = "missing";
  /** The {@link #OUTCOME} value of the duration timer when the call threw. */
  public static final String ERROR_OUTCOME = "error";

  private OutboxMetrics() {}
}
