package io.claimedoutbox.adapter.mongodb.testkit;

import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.Filters;
import com.mongodb.client.model.Updates;
import io.claimedoutbox.conformance.RawCompareAndSet;
import java.util.ArrayList;
import java.util.List;
import org.bson.Document;

/** A plain {@code findOneAndUpdate} filtered on a counter: what a hand-written compare-and-set costs. */
final class MongoRawCompareAndSet implements RawCompareAndSet {

  private final MongoCollection<Document> counters;

  private MongoRawCompareAndSet(MongoCollection<Document> counters) {
    this.counters = counters;
  }

  static MongoRawCompareAndSet prepare(MongoCollection<Document> counters, int keys) {
    counters.drop();
    List<Document> documents = new ArrayList<>();
    for (int key = 0; key < keys; key++) {
      documents.add(new Document("_id", key).append("v", 0L));
    }
    counters.insertMany(documents);
    return new MongoRawCompareAndSet(counters);
  }

  @Override
  public boolean compareAndSet(int key, long expected) {
    return counters.findOneAndUpdate(Filters.and(Filters.eq("_id", key), Filters.eq("v", expected)),
        Updates.inc("v", 1L)) != null;
  }

  @Override
  public void close() {
    counters.drop();
  }
}
