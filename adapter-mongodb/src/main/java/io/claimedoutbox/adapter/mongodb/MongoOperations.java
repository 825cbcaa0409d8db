package io.claimedoutbox.adapter.mongodb;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.gt;
import static com.mongodb.client.model.Filters.in;
import static com.mongodb.client.model.Filters.lt;
import static com.mongodb.client.model.Filters.lte;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Accumulators;
import com.mongodb.client.model.Aggregates;
import com.mongodb.client.model.FindOneAndUpdateOptions;
import com.mongodb.client.model.Projections;
import com.mongodb.client.model.ReturnDocument;
import com.mongodb.client.model.Sorts;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.domain.WriteStamp;
import io.claimedoutbox.port.DeadLetterQuery;
import io.claimedoutbox.port.RequeueResult;
import io.claimedoutbox.port.StatusCounts;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The operator's calls ({@link io.claimedoutbox.port.OutboxOperations}) on the entry collection.
 * The purge and the dead-letter list read partial indexes of finished documents only
 * ({@code finishedAt}, and dead letters by {@code _id}), which no claim reads; a purge deletes the
 * ids it picked with the cutoff checked again, so a dead letter requeued meanwhile stays.
 */
final class MongoOperations {

  private final MongoCollection<Document> collection;
  private final Clock clock;

  MongoOperations(MongoCollection<Document> collection, Clock clock) {
    this.collection = collection;
    this.clock = clock;
  }

  StatusCounts countByStatus() {
    Map<EntryStatus, Long> counts = new EnumMap<>(EntryStatus.class);
    collection.aggregate(List.of(Aggregates.group("$" + EntryDocuments.STATUS, Accumulators.sum("n", 1))))
        .forEach(group -> counts.put(EntryStatus.valueOf(group.getString("_id")), ((Number) group.get("n")).longValue()));
    return new StatusCounts(counts);
  }

  Optional<Duration> oldestDueAge() {
    Instant now = clock.instant();
    Document oldest = collection.find(lte(EntryDocuments.DUE_AT, Date.from(now)))
        .sort(Sorts.ascending(EntryDocuments.DUE_AT)).projection(Projections.include(EntryDocuments.DUE_AT))
        .limit(1).first();
    return Optional.ofNullable(oldest)
        .map(document -> Duration.between(document.getDate(EntryDocuments.DUE_AT).toInstant(), now));
  }

  List<OutboxEntry> deadLetters(DeadLetterQuery query) {
    List<Bson> filters = new ArrayList<>();
    filters.add(eq(EntryDocuments.STATUS, EntryStatus.DEAD_LETTERED.name()));
    query.after().ifPresent(after -> filters.add(gt(EntryDocuments.ID, after.value())));
    query.topic().ifPresent(topic -> filters.add(eq(EntryDocuments.TOPIC, topic)));
    List<OutboxEntry> letters = new ArrayList<>();
    collection.find(and(filters)).sort(Sorts.ascending(EntryDocuments.ID)).limit(query.limit())
        .forEach(document -> letters.add(EntryDocuments.toEntry(document)));
    return letters;
  }

  RequeueResult requeue(EntryId id) {
    Optional<OutboxEntry> before = find(id);
    if (before.isEmpty() || before.get().status() != EntryStatus.DEAD_LETTERED) {
      return RequeueResult.of(false, before);
    }
    OutboxEntry requeued = before.get().requeued(clock.instant(), WriteStamp.fresh());
    Document stored = collection.findOneAndUpdate(
        and(eq(EntryDocuments.ID, id.value()), eq(EntryDocuments.REVISION, before.get().revision()),
            eq(EntryDocuments.STATUS, EntryStatus.DEAD_LETTERED.name())),
        EntryDocuments.changeUpdate(before.get(), requeued),
        new FindOneAndUpdateOptions().returnDocument(ReturnDocument.AFTER));
    return stored != null ? RequeueResult.of(true, Optional.of(EntryDocuments.toEntry(stored)))
        : RequeueResult.of(false, find(id));
  }

  long countPurgeable(Duration olderThan) {
    return collection.countDocuments(lt(EntryDocuments.FINISHED_AT, Date.from(clock.instant().minus(olderThan))));
  }

  int purgeFinished(Duration olderThan, int batchSize) {
    Date cutoff = Date.from(clock.instant().minus(olderThan));
    List<String> ids = new ArrayList<>();
    collection.find(lt(EntryDocuments.FINISHED_AT, cutoff)).sort(Sorts.ascending(EntryDocuments.FINISHED_AT))
        .projection(Projections.include(EntryDocuments.ID)).limit(batchSize)
        .forEach(document -> ids.add(document.getString(EntryDocuments.ID)));
    if (ids.isEmpty()) {
      return 0;
    }
    return (int) collection.deleteMany(and(in(EntryDocuments.ID, ids), lt(EntryDocuments.FINISHED_AT, cutoff)))
        .getDeletedCount();
  }

  private Optional<OutboxEntry> find(EntryId id) {
    return Optional.ofNullable(collection.find(eq(EntryDocuments.ID, id.value())).first()).map(EntryDocuments::toEntry);
  }
}
