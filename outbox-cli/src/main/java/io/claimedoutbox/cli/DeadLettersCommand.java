package io.claimedoutbox.cli;

import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.DeadLetterQuery;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code outbox dead-letters}: one page of an outbox's dead letters. */
@Command(name = "dead-letters", mixinStandardHelpOptions = true,
    description = {"List an outbox's dead letters in id order, a page at a time, optionally of one topic.",
        "The last line gives the option that shows the next page."})
final class DeadLettersCommand implements Callable<Integer> {

  @Mixin
  OperatedOutbox outbox;

  @Option(names = "--topic", description = "Only this topic's dead letters.")
  String topic;

  @Option(names = "--after", description = "Start after this entry id (the last one of the previous page).")
  String after;

  @Option(names = "--limit", defaultValue = "50", description = "Entries per page (default: ${DEFAULT-VALUE}).")
  int limit;

  @Mixin
  CommonOptions common;

  @Override
  public Integer call() {
    DeadLetterQuery query = query();
    try (OperatedOutbox.Session session = outbox.open()) {
      List<OutboxEntry> letters = session.operations().deadLetters(query);
      if (letters.isEmpty()) {
        System.out.println("no dead letters" + (topic == null ? "" : " of topic " + topic)
            + (after == null ? "" : " after " + after));
        return 0;
      }
      TextTable table = new TextTable("id", "topic", "attempts", "dead since", "reason");
      letters.forEach(letter -> table.row(letter.id().value(), letter.message().topic(),
          Integer.toString(letter.attempts()), letter.updatedAt().toString(), oneLine(letter.lastError().orElse(""))));
      System.out.print(table.render());
      if (letters.size() == limit) {
        System.out.println("next page: --after " + letters.get(letters.size() - 1).id().value());
      }
      return 0;
    }
  }

  private DeadLetterQuery query() {
    try {
      DeadLetterQuery query = DeadLetterQuery.firstPage(limit);
      query = topic == null ? query : query.topic(topic);
      return after == null ? query : query.after(EntryId.of(after));
    } catch (IllegalArgumentException bad) {
      throw new UsageException(bad.getMessage());
    }
  }

  /** The whole reason on one line: its end (the cause of a wrapped error) is usually the useful part. */
  private static String oneLine(String text) {
    return text.replaceAll("\\s+", " ").strip();
  }
}
