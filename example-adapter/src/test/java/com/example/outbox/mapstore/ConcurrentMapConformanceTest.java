package com.example.outbox.mapstore;

import io.claimedoutbox.conformance.BackendFixture;
import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FaultProxy.Fault;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RaceStagingStorage;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.OutboxStoreException;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.EntryStorage;
import io.claimedoutbox.port.spi.StorageBackedOutboxStore;
import io.claimedoutbox.port.spi.WriteOutcomeUnknownException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;

@DisplayName("Conformance suite: example ConcurrentMap adapter")
class ConcurrentMapConformanceTest extends OutboxStoreConformanceSuite {

  private static final OutboxStoreFixture FIXTURE = new MapFixture();

  @Override
  protected OutboxStoreFixture fixture() {
    return FIXTURE;
  }

  /** The suite's view of the map: stores over it, and the stored fields read and damaged directly. */
  static final class MapFixture extends BackendFixture {
    private final ConcurrentHashMap<String, Map<String, byte[]>> map = new ConcurrentHashMap<>();

    MapFixture() {
      super("ConcurrentHashMap (example adapter)", Set.of(FixtureCapability.FAULT_PROXY));
    }

    @Override
    public void clean() {
      map.clear();
    }

    @Override
    public OutboxClaimOutcomeStore openStore(FixtureContext context) {
      return StorageBackedOutboxStore.over(
          RaceStagingStorage.around(new ConcurrentMapEntryStorage(map), context), context.clock());
    }

    /** The same map behind a link that loses requests and answers as the suite's proxies say. */
    @Override
    public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
      return StorageBackedOutboxStore.over(
          new LossyLink(new ConcurrentMapEntryStorage(map), proxies), context.clock());
    }

    @Override
    public Optional<RawEntryState> readRaw(EntryId id) {
      return Optional.ofNullable(map.get(id.value())).map(fields -> new RawEntryState(
          text(fields, EntryFields.ID), text(fields, EntryFields.STATUS), text(fields, EntryFields.OWNER),
          Long.parseLong(text(fields, EntryFields.CLAIM_GENERATION)), Long.parseLong(text(fields, EntryFields.REVISION)),
          text(fields, EntryFields.WRITE_STAMP)));
    }

    private static String text(Map<String, byte[]> fields, String name) {
      byte[] value = fields.get(name);
      return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public long countRaw() {
      return map.size();
    }

    @Override
    public void corrupt(EntryId id) {
      map.computeIfPresent(id.value(), (key, fields) -> {
        Map<String, byte[]> damaged = new ConcurrentHashMap<>(fields);
        damaged.remove(EntryFields.TOPIC);
        return damaged;
      });
    }
  }

  /**
   * An in-process stand-in for a network between the store and the map: a request cut before it is
   * never done; one whose answer is lost is done, and a compare-and-set then says so with
   * {@link WriteOutcomeUnknownException}, as a real adapter's storage would.
   */
  record LossyLink(EntryStorage storage, FaultProxies proxies) implements EntryStorage {

    private <T> T send(Supplier<T> request, boolean write) {
      Optional<Fault> fault = proxies.nextRequest();
      if (fault.isPresent() && fault.get() == Fault.CUT_BEFORE_REQUEST) {
        throw new OutboxStoreException("connection cut before the request");
      }
      T answer = request.get();
      if (fault.isPresent()) {
        throw write ? new WriteOutcomeUnknownException("answer lost", null) : new OutboxStoreException("answer lost");
      }
      return answer;
    }

    @Override
    public void insertAll(List<OutboxEntry> entries) {
      send(() -> {
        storage.insertAll(entries);
        return null;
      }, false);
    }

    @Override
    public Optional<OutboxEntry> read(EntryId id) {
      return send(() -> storage.read(id), false);
    }

    @Override
    public boolean compareAndSet(OutboxEntry expected, OutboxEntry next) {
      return send(() -> storage.compareAndSet(expected, next), true);
    }

    @Override
    public boolean remove(EntryId id) {
      return send(() -> storage.remove(id), false);
    }

    @Override
    public List<OutboxEntry> dueCandidates(Instant now, int limit) {
      return send(() -> storage.dueCandidates(now, limit), false);
    }
  }
}
