package io.claimedoutbox.cli;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.RequeueResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox requeue}: puts dead letters back in the queue. */
@Command(name = "requeue", mixinStandardHelpOptions = true,
    description = {"Put dead letters back in the queue, due now, with their claim generation raised (a worker still"
        + " holding an old claim on one gets STALE_CLAIM).",
        "Name the entries with --id, or take every dead letter with --all (optionally of one --topic).",
        "Exits 1 when a named entry was not requeued."})
final class RequeueCommand implements Callable<Integer> {

  @Mixin
  OperatedOutbox outbox;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Which which;

  static final class Which {
    @Option(names = "--id", split = ",", description = "Entry ids to requeue (repeat or separate with commas).")
    List<String> ids;

    @Option(names = "--all", description = "Every dead letter (of --topic, when given).")
    boolean all;
  }

  @Option(names = "--topic", description = "With --all: only this topic's dead letters.")
  String topic;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() {
    if (topic != null && !which.all) {
      throw new UsageException("--topic goes with --all");
    }
    List<EntryId> ids = new ArrayList<>();
    try {
      if (which.ids != null) {
        which.ids.forEach(id -> ids.add(EntryId.of(id)));
      }
    } catch (IllegalArgumentException bad) {
      throw new UsageException(bad.getMessage());
    }
    try (OperatedOutbox.Session session = outbox.open()) {
      if (which.all) {
        DeadLetterQuery query = DeadLetterQuery.firstPage(500);
        long requeued = session.operations().requeueAll(topic == null ? query : query.topic(topic));
        System.out.println("requeued " + requeued + " dead letter" + (requeued == 1 ? "" : "s")
            + (topic == null ? "" : " of topic " + topic));
        return 0;
      }
      int failed = 0;
      for (EntryId id : ids) {
        RequeueResult result = session.operations().requeue(id);
        String detail = switch (result.outcome()) {
          case REQUEUED -> "requeued (claim generation " + result.entry().orElseThrow().claimGeneration() + ")";
          case NOT_DEAD_LETTERED -> "not requeued: it is " + result.entry().orElseThrow().status().tagValue();
          case MISSING -> "not requeued: no such entry";
        };
        failed += result.outcome() == RequeueResult.Outcome.REQUEUED ? 0 : 1;
        System.out.println(id.value() + ": " + detail);
      }
      return failed == 0 ? 0 : 1;
    }
  }
}
