package io.claimedoutbox.cli;

import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.port.StatusCounts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code outbox status}: the backlog of an existing outbox. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Count an outbox's entries by status and show how long its oldest due entry has waited.")
final class StatusCommand implements Callable<Integer> {

  @Mixin
  OperatedOutbox outbox;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() {
    try (OperatedOutbox.Session session = outbox.open()) {
      StatusCounts counts = session.operations().countByStatus();
      Optional<Duration> oldest = session.operations().oldestDueAge();
      TextTable table = new TextTable("status", "entries");
      for (EntryStatus status : EntryStatus.values()) {
        table.row(status.tagValue(), Long.toString(counts.of(status)));
      }
      table.row("total", Long.toString(counts.total()));
      System.out.print(table.render());
      System.out.println("oldest due entry: " + oldest.map(age -> "waiting " + Durations.text(age)).orElse("none due"));
      return 0;
    }
  }
}
