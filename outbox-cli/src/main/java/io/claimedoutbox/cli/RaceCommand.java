package io.claimedoutbox.cli;

import java.io.PrintStream;
import java.time.Clock;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox race}: N drains race over M entries on one backend; prints outcomes and checks attribution. */
@Command(name = "race", mixinStandardHelpOptions = true,
    description = {"Race several drains over one outbox with leases short enough to expire mid-work.",
        "Prints the outcomes per transition, the attribution check (every terminal entry attributed to exactly"
            + " one APPLIED result, nothing lost), throughput and latency percentiles.",
        "Exits 1 when an invariant is broken."})
final class RaceCommand implements Callable<Integer> {

  @Option(names = {"-b", "--backend"}, defaultValue = "h2:mem",
      description = "Where the outbox lives: " + Backends.SUPPORTED + " (default: ${DEFAULT-VALUE}).")
  String backend = "h2:mem";

  @Mixin
  WorkloadOptions workload = new WorkloadOptions();

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() throws InterruptedException {
    RaceSettings settings = workload.settings();
    RaceResult result = run(backend, settings, System.out, System.err);
    System.out.print(RaceReport.render(result));
    return result.passed() ? 0 : 1;
  }

  static RaceResult run(String url, RaceSettings settings, PrintStream out, PrintStream progressOut)
      throws InterruptedException {
    try (BackendSession session = Backends.open(url, Clock.systemUTC())) {
      return run(session, settings, out, progressOut);
    }
  }

  static RaceResult run(BackendSession session, RaceSettings settings, PrintStream out, PrintStream progressOut)
      throws InterruptedException {
    out.printf(Locale.ROOT, "outbox race on %s: %d workers x %d handlers, %,d entries, lease %d ms,"
            + " %.0f%% of handler calls outlast the lease, %.0f%% fail%n", session.label(), settings.workers(),
        settings.handlersPerWorker(), settings.entries(), settings.lease().toMillis(),
        settings.slowFraction() * 100, settings.failureFraction() * 100);
    ProgressBar bar = new ProgressBar(progressOut, System.console() != null, "draining", settings.entries());
    RaceResult result = RaceWorkload.run(session, settings, Clock.systemUTC(), bar::update);
    bar.end();
    return result;
  }
}
