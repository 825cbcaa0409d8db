package io.claimedoutbox.port;

import io.claimedoutbox.domain.Arguments;
import io.claimedoutbox.domain.EntryId;
import java.util.Optional;

/**
 * Which dead letters to list: all or one topic's, after an id (the last of the previous page), a
 * page at a time. Immutable; build with {@link #firstPage} and the {@code with}-style methods.
 *
 * @param topic only this topic's dead letters, when present
 * @param after only ids greater than this one, when present
 * @param limit the page size, 1 to {@link OutboxOperations#MAX_BATCH}
 */
public record DeadLetterQuery(Optional<String> topic, Optional<EntryId> after, int limit) {

  /**
   * Validates the query.
   *
   * @throws NullPointerException if {@code topic} or {@code after} is null
   * @throws IllegalArgumentException if the limit is out of range or the topic blank
   */
  public DeadLetterQuery {
    Arguments.requireNonNull(topic, "topic").ifPresent(name -> Arguments.requireText(name, "topic", 255));
    Arguments.requireNonNull(after, "after");
    Arguments.requirePositive(limit, "limit");
    if (limit > OutboxOperations.MAX_BATCH) {
      throw new IllegalArgumentException("limit must be at most " + OutboxOperations.MAX_BATCH + ", was " + limit);
    }
  }

  /**
   * @param limit the page size
   * @return the first page of all topics' dead letters
   */
  public static DeadLetterQuery firstPage(int limit) {
    return new DeadLetterQuery(Optional.empty(), Optional.empty(), limit);
  }

  /**
   * @param name the topic
   * @return this query limited to one topic
   */
  public DeadLetterQuery topic(String name) {
    return new DeadLetterQuery(Optional.of(Arguments.requireNonNull(name, "topic")), after, limit);
  }

  /**
   * @param id the last id of the previous page
   * @return the page after {@code id}
   */
  public DeadLetterQuery after(EntryId id) {
    return new DeadLetterQuery(topic, Optional.of(Arguments.requireNonNull(id, "after")), limit);
  }

  /**
   * @param entryTopic an entry's topic
   * @param id the entry's id
   * @return whether the entry belongs on this query's pages (status aside)
   */
  public boolean matches(String entryTopic, EntryId id) {
    return topic.map(entryTopic::equals).orElse(true) && after.map(start -> id.compareTo(start) > 0).orElse(true);
  }
}
