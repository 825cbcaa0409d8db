package io.claimedoutbox.adapter.mongodb;

import de.bwaldvogel.mongo.backend.ArrayFilters;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.QueryParameters;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import de.bwaldvogel.mongo.backend.memory.MemoryCollection;
import de.bwaldvogel.mongo.backend.memory.MemoryDatabase;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.oplog.Oplog;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * mongo-java-server's in-memory backend, made to answer the way MongoDB does: with a snapshot of
 * each document taken inside the operation. Out of the box it replies with its live stored
 * document objects and encodes them after releasing its lock, so under concurrent writers a reply
 * can show a later write (the suite's H1 caught two claims answered with one token). Copying the
 * replies inside the lock removes that difference and nothing else.
 */
final class SnapshotMemoryBackend extends MemoryBackend {

  @Override
  public MemoryDatabase openOrCreateDatabase(String databaseName) {
    return new MemoryDatabase(databaseName, getCursorRegistry()) {
      @Override
      protected MemoryCollection openOrCreateCollection(String collectionName, CollectionOptions options) {
        return new SnapshotCollection(this, collectionName, options, cursorRegistry);
      }
    };
  }

  private static final class SnapshotCollection extends MemoryCollection {

    /**
     * Writes query through handleQuery and then change what they got back, so their own queries
     * must stay live; only replies to clients are copied.
     */
    private final ThreadLocal<Boolean> insideWrite = ThreadLocal.withInitial(() -> false);

    SnapshotCollection(MemoryDatabase database, String collectionName, CollectionOptions options,
        CursorRegistry cursorRegistry) {
      super(database, collectionName, options, cursorRegistry);
    }

    @Override
    public synchronized Document findAndModify(Document query) {
      Document result = whileWriting(() -> super.findAndModify(query));
      if (result.get("value") instanceof Document live) {
        result.put("value", live.cloneDeeply());
      }
      return result;
    }

    @Override
    public synchronized int deleteDocuments(Document selector, int limit, Oplog oplog) {
      return whileWriting(() -> super.deleteDocuments(selector, limit, oplog));
    }

    @Override
    public synchronized Document updateDocuments(Document selector, Document update, ArrayFilters arrayFilters,
        boolean multi, boolean upsert, Oplog oplog) {
      return whileWriting(() -> super.updateDocuments(selector, update, arrayFilters, multi, upsert, oplog));
    }

    private <T> T whileWriting(Supplier<T> write) {
      insideWrite.set(true);
      try {
        return write.get();
      } finally {
        insideWrite.set(false);
      }
    }

    @Override
    public synchronized QueryResult handleQuery(QueryParameters parameters) {
      QueryResult live = super.handleQuery(parameters);
      if (insideWrite.get()) {
        return live;
      }
      List<Document> snapshots = new ArrayList<>();
      live.forEach(document -> snapshots.add(document.cloneDeeply()));
      return new QueryResult(snapshots, live.getCursorId());
    }
  }
}
