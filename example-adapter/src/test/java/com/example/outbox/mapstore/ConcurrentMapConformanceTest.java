package com.example.outbox.mapstore;

import io.claimedoutbox.conformance.BackendFixture;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreConformanceSuite;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RaceStagingStorage;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.EntryFields;
import io.claimedoutbox.port.spi.StorageBackedOutboxStore;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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
      super("ConcurrentHashMap (example adapter)", Set.of());
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
}
