package io.claimedoutbox.micrometer;

import io.claimedoutbox.domain.Arguments;

/**
 * The names of every meter {@link OutboxStoreMeters}, {@link OutboxStoreObservations},
 * {@link BacklogGauges} and {@link DrainMeters} register. {@link #defaults()} are the names in
 * {@link OutboxMetrics}; {@link #withPrefix} moves them all under another prefix (say
 * {@code orders.outbox}), and the record's constructor names each one. Tag keys and values are not
 * renamed: they are the vocabulary {@link OutboxMetrics} documents.
 *
 * @param transitionAttempts counter, one per transition asked ({@link OutboxMetrics#TRANSITION_ATTEMPTS})
 * @param transitionDuration timer, one per transition call ({@link OutboxMetrics#TRANSITION_DURATION});
 *     also the name of the call's observation
 * @param transitionErrors counter, one per transition of a call that threw ({@link OutboxMetrics#TRANSITION_ERRORS})
 * @param claimedEntries counter of claims handed out ({@link OutboxMetrics#CLAIMED_ENTRIES})
 * @param claimDuration timer, one per claim call ({@link OutboxMetrics#CLAIM_DURATION})
 * @param appendedEntries counter of entries appended ({@link OutboxMetrics#APPENDED_ENTRIES})
 * @param appendDuration timer, one per append call ({@link OutboxMetrics#APPEND_DURATION})
 * @param entries gauge per status ({@link OutboxMetrics#ENTRIES})
 * @param oldestDueAge gauge ({@link OutboxMetrics#OLDEST_DUE_AGE})
 * @param drain the prefix of the drain's meters ({@link OutboxMetrics#DRAIN}), e.g. {@code outbox.drain.in_flight}
 */
public record OutboxMeterNames(String transitionAttempts, String transitionDuration, String transitionErrors,
    String claimedEntries, String claimDuration, String appendedEntries, String appendDuration, String entries,
    String oldestDueAge, String drain) {

  private static final String DEFAULT_PREFIX = "outbox";
  private static final int MAX_NAME = 200;

  /** Checks that every name is given and not blank. */
  public OutboxMeterNames {
    Arguments.requireText(transitionAttempts, "transitionAttempts", MAX_NAME);
    Arguments.requireText(transitionDuration, "transitionDuration", MAX_NAME);
    Arguments.requireText(transitionErrors, "transitionErrors", MAX_NAME);
    Arguments.requireText(claimedEntries, "claimedEntries", MAX_NAME);
    Arguments.requireText(claimDuration, "claimDuration", MAX_NAME);
    Arguments.requireText(appendedEntries, "appendedEntries", MAX_NAME);
    Arguments.requireText(appendDuration, "appendDuration", MAX_NAME);
    Arguments.requireText(entries, "entries", MAX_NAME);
    Arguments.requireText(oldestDueAge, "oldestDueAge", MAX_NAME);
    Arguments.requireText(drain, "drain", MAX_NAME);
  }

  /** @return the names {@link OutboxMetrics} lists */
  public static OutboxMeterNames defaults() {
    return new OutboxMeterNames(OutboxMetrics.TRANSITION_ATTEMPTS, OutboxMetrics.TRANSITION_DURATION,
        OutboxMetrics.TRANSITION_ERRORS, OutboxMetrics.CLAIMED_ENTRIES, OutboxMetrics.CLAIM_DURATION,
        OutboxMetrics.APPENDED_ENTRIES, OutboxMetrics.APPEND_DURATION, OutboxMetrics.ENTRIES,
        OutboxMetrics.OLDEST_DUE_AGE, OutboxMetrics.DRAIN);
  }

  /**
   * The default names with {@code outbox} replaced by {@code prefix}: {@code orders.outbox} makes
   * {@code outbox.claim_transition_attempts} {@code orders.outbox.claim_transition_attempts}.
   *
   * @param prefix the new prefix, not blank, without a trailing dot
   * @return the names
   */
  public static OutboxMeterNames withPrefix(String prefix) {
    Arguments.requireText(prefix, "prefix", MAX_NAME);
    if (prefix.endsWith(".")) {
      throw new IllegalArgumentException("prefix must not end with a dot, was " + prefix);
    }
    OutboxMeterNames d = defaults();
    return new OutboxMeterNames(moved(d.transitionAttempts, prefix), moved(d.transitionDuration, prefix),
        moved(d.transitionErrors, prefix), moved(d.claimedEntries, prefix), moved(d.claimDuration, prefix),
        moved(d.appendedEntries, prefix), moved(d.appendDuration, prefix), moved(d.entries, prefix),
        moved(d.oldestDueAge, prefix), moved(d.drain, prefix));
  }

  private static String moved(String name, String prefix) {
    return prefix + name.substring(DEFAULT_PREFIX.length());
  }
}
