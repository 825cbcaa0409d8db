package io.claimedoutbox.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The race workload's knobs, shared by {@code race} and {@code compare}. */
final class WorkloadOptions {

  @Option(names = "--workers", defaultValue = "4", description = "Drains racing over the outbox (default: ${DEFAULT-VALUE}).")
  int workers;

  @Option(names = "--handlers", defaultValue = "4", description = "Handlers per drain (default: ${DEFAULT-VALUE}).")
  int handlers;

  @Option(names = "--entries", defaultValue = "2000", description = "Messages to drain (default: ${DEFAULT-VALUE}).")
  int entries;

  @Option(names = "--lease", defaultValue = "500ms", converter = DurationConverter.class,
      description = "Lease of each claim; short, so some expire mid-work (default: ${DEFAULT-VALUE}).")
  Duration lease;

  @Option(names = "--slow", defaultValue = "0.05",
      description = "Fraction of handler calls that outlast the lease (default: ${DEFAULT-VALUE}).")
  double slow;

  @Option(names = "--failures", defaultValue = "0.03",
      description = "Fraction of handler calls that fail; a tenth of those for good (default: ${DEFAULT-VALUE}).")
  double failures;

  @Option(names = "--timeout", defaultValue = "300s", converter = DurationConverter.class,
      description = "Give up when the race has not finished after this long (default: ${DEFAULT-VALUE}).")
  Duration timeout;

  RaceSettings settings() {
    return new RaceSettings(workers, handlers, entries, lease, slow, failures, timeout);
  }
}
