package io.claimedoutbox.conformance.reference;

import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.TransitionWriteHook;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * The fixture for {@link InMemoryOutboxStore} and its deliberately broken variants: the "backend"
 * is the store's own map, read directly for raw state.
 */
public final class InMemoryStoreFixture implements OutboxStoreFixture {

  private final String name;
  private final BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> factory;
  private InMemoryOutboxStore current;

  /**
   * @param name the name the report shows
   * @param factory builds the store (the reference one or a broken one)
   */
  public InMemoryStoreFixture(String name,
      BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> factory) {
    this.name = name;
    this.factory = factory;
  }

  /** @return the fixture of the reference store */
  public static InMemoryStoreFixture reference() {
    return new InMemoryStoreFixture("in-memory reference store", InMemoryOutboxStore::new);
  }

  @Override
  public String backendName() {
    return name;
  }

  @Override
  public Set<FixtureCapability> capabilities() {
    return Set.of(FixtureCapability.FAULT_PROXY);
  }

  @Override
  public void clean() {
    current = null;
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    current = factory.apply(context.clock(), context.writeHook());
    return current;
  }

  /** The same store, its requests now sent over the suite's fault link (an in-process store has no socket). */
  @Override
  public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
    current.routeThrough(proxies::nextRequest);
    return current;
  }

  @Override
  public Optional<RawEntryState> readRaw(EntryId id) {
    return Optional.ofNullable(current.rawRows().get(id)).map(InMemoryStoreFixture::raw);
  }

  private static RawEntryState raw(OutboxEntry entry) {
    return new RawEntryState(entry.id().value(), entry.status().name(),
        entry.currentClaim().map(claim -> claim.owner().value()).orElse(null),
        entry.claimGeneration(), entry.revision(),
        entry.lastWriteStamp().map(Object::toString).orElse(null));
  }

  @Override
  public long countRaw() {
    return current.rawRows().size();
  }

  @Override
  public void corrupt(EntryId id) {
    current.corrupt(id, "status field holds 'SHIPPED', which is no status");
  }
}
