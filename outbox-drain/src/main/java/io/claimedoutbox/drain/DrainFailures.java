package io.claimedoutbox.drain;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What went wrong inside a drain, part by part, so that no failure — an {@link Error} such as
 * {@code OutOfMemoryError} included — stops a part silently: each is logged, counted, kept as the
 * last failure (for health checks) and the part carries on (the poller backs off and claims again,
 * the renewal runs at its next interval, a result is kept to be written again).
 */
final class DrainFailures {

  private static final Logger LOG = LoggerFactory.getLogger(DrainFailures.class);

  /** Where a failure happened. */
  enum Part {
    /** A claim call (the poll loop, or handing an ordering key on). */
    CLAIM("could not claim entries; backing off and claiming again"),
    /** A lease renewal round. */
    RENEWAL("could not renew leases; renewing again at the next interval"),
    /** A handler threw an {@link Error}: the entry is failed and retried like any handler failure. */
    HANDLER("handler threw an Error; the entry is failed and will be retried"),
    /** Writing results. */
    RECORDING("could not record results; they are kept and written again with the next renewal");

    private final String consequence;

    Part(String consequence) {
      this.consequence = consequence;
    }
  }

  /** The last failure: which part, when, what. */
  record Failure(Part part, Instant at, String description) {}

  private final String worker;
  private final Clock clock;
  private final AtomicLong claims = new AtomicLong();
  private final AtomicInteger claimsInARow = new AtomicInteger();
  private final AtomicLong renewals = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final AtomicReference<Failure> last = new AtomicReference<>();

  DrainFailures(String worker, Clock clock) {
    this.worker = worker;
    this.clock = clock;
  }

  void failed(Part part, Throwable failure) {
    if (failure instanceof Error) {
      errors.incrementAndGet();
      LOG.error("Outbox drain {} {}", worker, part.consequence, failure);
    } else {
      LOG.warn("Outbox drain {} {}", worker, part.consequence, failure);
    }
    switch (part) {
      case CLAIM -> {
        claims.incrementAndGet();
        claimsInARow.incrementAndGet();
      }
      case RENEWAL -> renewals.incrementAndGet();
      default -> { }
    }
    last.set(new Failure(part, clock.instant(), failure.getClass().getName()
        + (failure.getMessage() == null ? "" : ": " + failure.getMessage())));
  }

  void claimSucceeded() {
    claimsInARow.set(0);
  }

  long claimFailures() {
    return claims.get();
  }

  int claimFailuresInARow() {
    return claimsInARow.get();
  }

  long renewalFailures() {
    return renewals.get();
  }

  long errors() {
    return errors.get();
  }

  Optional<Failure> last() {
    return Optional.ofNullable(last.get());
  }
}
