package io.claimedoutbox.cli;

import io.claimedoutbox.port.OperationArguments;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox purge}: deletes old finished entries now, as the retention job does. */
@Command(name = "purge", mixinStandardHelpOptions = true,
    description = {"Delete delivered and dead-lettered entries whose last write is older than --older-than, in"
        + " batches of --batch-size (each one bounded statement or script over finished entries only, so workers"
        + " keep claiming while it runs).",
        "With --dry-run, only count what would be deleted."})
final class PurgeCommand implements Callable<Integer> {

  @Mixin
  OperatedOutbox outbox;

  @Option(names = "--older-than", required = true, converter = DurationConverter.class,
      description = "The least age of the last write, e.g. 7d, 12h, 30m.")
  Duration olderThan;

  @Option(names = "--batch-size", defaultValue = "1000", description = "Entries per delete (default: ${DEFAULT-VALUE}).")
  int batchSize;

  @Option(names = "--dry-run", description = "Count the entries that would be deleted; delete nothing.")
  boolean dryRun;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() {
    try {
      OperationArguments.checkPurge(olderThan, batchSize);
    } catch (IllegalArgumentException bad) {
      throw new UsageException(bad.getMessage().replace("olderThan", "--older-than").replace("batchSize", "--batch-size"));
    }
    try (OperatedOutbox.Session session = outbox.open()) {
      if (dryRun) {
        long purgeable = session.operations().countPurgeable(olderThan);
        System.out.printf(Locale.ROOT, "dry run: %d finished entr%s older than %s would be purged; nothing was deleted%n",
            purgeable, purgeable == 1 ? "y" : "ies", Durations.text(olderThan));
        return 0;
      }
      long started = System.nanoTime();
      long deleted = session.operations().purgeAll(olderThan, batchSize);
      double seconds = (System.nanoTime() - started) / 1e9;
      System.out.printf(Locale.ROOT, "purged %d finished entr%s older than %s in %.1f s (%,.0f per second)%n", deleted,
          deleted == 1 ? "y" : "ies", Durations.text(olderThan), seconds, deleted / Math.max(seconds, 1e-3));
      return 0;
    }
  }
}
