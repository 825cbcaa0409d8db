package io.claimedoutbox.adapter.mongodb;

import static com.mongodb.client.model.Filters.and;
import static com.mongodb.client.model.Filters.eq;
import static com.mongodb.client.model.Filters.exists;
import static com.mongodb.client.model.Filters.in;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;
import com.mongodb.MongoInterruptedException;
import com.mongodb.MongoOperationTimeoutException;
import com.mongodb.MongoSocketReadException;
import com.mongodb.MongoSocketReadTimeoutException;
import com.mongodb.MongoSocketWriteException;
import com.mongodb.MongoWriteConcernException;
import com.mongodb.client.MongoCollection;
import com.mongodb.client.model.BulkWriteOptions;
import com.mongodb.client.model.UpdateOneModel;
import io.claimedoutbox.domain.Claim;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.EntryStatus;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.ConditionalWrite;
import io.claimedoutbox.port.spi.ConditionalWrites;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.WriteAnswer;
import io.claimedoutbox.port.spi.WriteOutcomeUnknownException;
import io.claimedoutbox.port.spi.WriteStillRunningException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.bson.Document;
import org.bson.conversions.Bson;

/**
 * The MongoDB primitives the transition kernel decides over: one {@code updateOne} for a single
 * write and one unordered {@code bulkWrite} for a batch, each filtered on the id, the expected
 * revision and the claim's status, owner and token, and changing only what the transition changes
 * ({@link EntryDocuments#changeUpdate}); reads by id, a batch's in one {@code find}.
 *
 * <p>How a failure is sorted: the client gave up waiting (a read or operation timeout, an
 * interrupted wait) while the server may still run the write, so reading proves nothing
 * ({@link WriteStillRunningException}); the answer was lost on the socket, or the write was applied
 * on the primary without its write concern's acknowledgement ({@link WriteOutcomeUnknownException}:
 * the document read again decides); any other failure came before anything was written.
 */
final class DocumentConditionalWrites implements ConditionalWrites {

  private final MongoCollection<Document> collection;

  DocumentConditionalWrites(MongoCollection<Document> collection) {
    this.collection = collection;
  }

  @Override
  public List<WriteAnswer> writeAll(List<ConditionalWrite> writes) {
    String what = ConditionalWrite.describe(writes);
    try {
      if (writes.size() == 1) {
        ConditionalWrite write = writes.get(0);
        long matched = collection.updateOne(filter(write), EntryDocuments.changeUpdate(write.basis(), write.next()))
            .getMatchedCount();
        return List.of(matched == 1 ? WriteAnswer.WRITTEN : WriteAnswer.NOT_WRITTEN);
      }
      List<UpdateOneModel<Document>> updates = new ArrayList<>(writes.size());
      writes.forEach(write -> updates.add(
          new UpdateOneModel<>(filter(write), EntryDocuments.changeUpdate(write.basis(), write.next()))));
      // the result counts matches for the whole batch only: when one missed, the stamps read back tell which
      boolean allMatched = collection.bulkWrite(updates, new BulkWriteOptions().ordered(false)).getMatchedCount()
          == writes.size();
      return Collections.nCopies(writes.size(), allMatched ? WriteAnswer.WRITTEN : WriteAnswer.UNSAID);
    } catch (MongoSocketReadTimeoutException | MongoOperationTimeoutException | MongoInterruptedException gaveUp) {
      throw new WriteStillRunningException(failed(what, gaveUp), gaveUp);
    } catch (MongoBulkWriteException partly) {
      if (partly.getWriteConcernError() != null) {
        throw new WriteOutcomeUnknownException(failed(what, partly), partly);
      }
      // the elements with a write error were not written; the stamps read back tell which others were
      return Collections.nCopies(writes.size(), WriteAnswer.UNSAID);
    } catch (MongoSocketReadException | MongoSocketWriteException | MongoWriteConcernException answerLost) {
      throw new WriteOutcomeUnknownException(failed(what, answerLost), answerLost);
    } catch (MongoException failure) {
      throw new OutboxStoreException(failed(what, failure), failure);
    }
  }

  @Override
  public Optional<OutboxEntry> read(EntryId id) {
    try {
      return Optional.ofNullable(collection.find(eq(EntryDocuments.ID, id.value())).first())
          .map(EntryDocuments::toEntry);
    } catch (MongoException failure) {
      throw new OutboxStoreException(failed("find " + id, failure), failure);
    }
  }

  @Override
  public Map<EntryId, Optional<OutboxEntry>> readAll(List<EntryId> ids) {
    Map<EntryId, Optional<OutboxEntry>> stored = new LinkedHashMap<>();
    ids.forEach(id -> stored.put(id, Optional.empty()));
    List<Document> found;
    try {
      found = collection.find(in(EntryDocuments.ID, ids.stream().map(EntryId::value).toList()))
          .into(new ArrayList<>());
    } catch (MongoException failure) {
      throw new OutboxStoreException(failed("find " + ids.size() + " entries", failure), failure);
    }
    found.forEach(document -> {
      OutboxEntry entry = EntryDocuments.toEntry(document);
      stored.put(entry.id(), Optional.of(entry));
    });
    return stored;
  }

  /** A document still at the write's expected revision and held under its claim. */
  private static Bson filter(ConditionalWrite write) {
    Claim claim = write.claim();
    List<Bson> conditions = new ArrayList<>(List.of(eq(EntryDocuments.ID, claim.entryId().value()),
        eq(EntryDocuments.REVISION, write.expectedRevision()),
        eq(EntryDocuments.STATUS, EntryStatus.CLAIMED.name()),
        eq(EntryDocuments.OWNER, claim.owner().value()),
        eq(EntryDocuments.TOKEN_NONCE, claim.token().nonce().toString())));
    // a damaged document (a field every entry has is gone) is not written: the miss reads it, and the read names it
    EntryFields.ALWAYS_PRESENT.stream().filter(field -> !field.equals(EntryFields.ID))
        .forEach(field -> conditions.add(exists(field)));
    return and(conditions);
  }

  private static String failed(String what, MongoException failure) {
    return "outbox store failed: " + what + ": " + failure.getMessage();
  }
}
