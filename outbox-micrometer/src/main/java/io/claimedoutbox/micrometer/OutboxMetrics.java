package io.claimedoutbox.micrometer;

/**
 * The names of the meters {@link ObservedOutboxStore} records and of their tags. Tag values are
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
   * Timer: how long each transition call took, tagged {@link #TRANSITION} and {@link #OUTCOME}
   * ({@code error} when the call threw).
   */
  public static final String TRANSITION_DURATION = "outbox.claim_transition_duration";

  /**
   * Counter: transition calls that threw instead of answering (infrastructure failures, unknown
   * outcomes), tagged {@link #TRANSITION} and {@link #EXCEPTION} (the exception's simple class name).
   */
  public static final String TRANSITION_ERRORS = "outbox.claim_transition_errors";

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
  /** Tag key: the exception's simple class name. */
  public static final String EXCEPTION = "exception";

  /** The {@link #DURABLE_STATUS} value when no row exists. */
  public static final String NO_ROW = "missing";
  /** The {@link #OUTCOME} value of the duration timer when the call threw. */
  public static final String ERROR_OUTCOME = "error";

  private OutboxMetrics() {}
}
