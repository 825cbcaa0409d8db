package io.claimedoutbox.conformance.reference;

import io.claimedoutbox.conformance.FaultProxies;
import io.claimedoutbox.conformance.FixtureCapability;
import io.claimedoutbox.conformance.FixtureContext;
import io.claimedoutbox.conformance.OutboxStoreFixture;
import io.claimedoutbox.conformance.RawEntryState;
import io.claimedoutbox.domain.EntryId;
import io.claimedoutbox.domain.OutboxEntry;
import io.claimedoutbox.port.OutboxClaimOutcomeStore;
import io.claimedoutbox.port.spi.StoreTimeClock;
import io.claimedoutbox.conformance.TransitionWriteHook;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The fixture for {@link InMemoryOutboxStore} and its deliberately broken variants: the "backend"
 * is the store's own map, read directly for raw state. A variant is either a subclass (a bug in a
 * primitive an adapter on the kernel writes) or a store wrapped around the reference (a bug only a
 * store written by hand can have); the suite is handed the wrapper, the raw reads go to the map.
 */
public final class InMemoryStoreFixture implements OutboxStoreFixture {

  /** Builds a store on store time: the "server's" clock, and the worker's clock it must not use. */
  @FunctionalInterface
  public interface StoreTimeFactory {
    /**
     * @param storeClock the store's own clock (the reference store reads this JVM's wall clock, as a
     *     server on this machine would answer)
     * @param workerClock the worker's clock, which a store on store time ignores
     * @param writeHook the suite's write hook
     * @return the store
     */
    InMemoryOutboxStore create(Clock storeClock, Clock workerClock, TransitionWriteHook writeHook);
  }

  private final String name;
  private final BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> factory;
  private final StoreTimeFactory storeTimeFactory;
  private final Function<InMemoryOutboxStore, OutboxClaimOutcomeStore> wrapper;
  private InMemoryOutboxStore current;

  /**
   * @param name the name the report shows
   * @param factory builds the store (the reference one or a broken one)
   */
  public InMemoryStoreFixture(String name,
      BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> factory) {
    this(name, factory, (storeClock, workerClock, writeHook) -> factory.apply(storeClock, writeHook));
  }

  /**
   * @param name the name the report shows
   * @param factory builds the store on the worker's clock
   * @param storeTimeFactory builds the store on store time
   */
  public InMemoryStoreFixture(String name, BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> factory,
      StoreTimeFactory storeTimeFactory) {
    this(name, factory, storeTimeFactory, store -> store);
  }

  private InMemoryStoreFixture(String name, BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> factory,
      StoreTimeFactory storeTimeFactory, Function<InMemoryOutboxStore, OutboxClaimOutcomeStore> wrapper) {
    this.name = name;
    this.factory = factory;
    this.storeTimeFactory = storeTimeFactory;
    this.wrapper = wrapper;
  }

  /**
   * The reference store as the suite sees it through {@code wrapper}: for a planted fault that only a
   * store written by hand can have.
   *
   * @param name the name the report shows
   * @param wrapper wraps each store the fixture opens (the reference store, on the worker's clock or
   *     on store time); raw reads still see the reference store's map
   * @return the fixture
   */
  public static InMemoryStoreFixture wrapped(String name, Function<InMemoryOutboxStore, OutboxClaimOutcomeStore> wrapper) {
    BiFunction<Clock, TransitionWriteHook, InMemoryOutboxStore> reference = InMemoryOutboxStore::new;
    return new InMemoryStoreFixture(name, reference,
        (storeClock, workerClock, writeHook) -> reference.apply(storeClock, writeHook), wrapper);
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
    return Set.of(FixtureCapability.FAULT_PROXY, FixtureCapability.STORE_TIME);
  }

  @Override
  public void clean() {
    current = null;
  }

  @Override
  public OutboxClaimOutcomeStore openStore(FixtureContext context) {
    return opened(factory.apply(context.clock(), context.writeHook()));
  }

  /** Reads time from this JVM's wall clock, as a server would answer, through the adapters' store-time clock. */
  @Override
  public OutboxClaimOutcomeStore openStoreOnStoreTime(FixtureContext context) {
    Clock storeClock = StoreTimeClock.of(Instant::now, StoreTimeClock.DEFAULT_REFRESH);
    return opened(storeTimeFactory.create(storeClock, context.clock(), context.writeHook()));
  }

  /** A second store during one test is a second client of the same rows, as over one database. */
  private OutboxClaimOutcomeStore opened(InMemoryOutboxStore store) {
    if (current != null) {
      store.shareRowsOf(current);
    }
    current = store;
    return wrapper.apply(store);
  }

  /** The same store, its requests now sent over the suite's fault link (an in-process store has no socket). */
  @Override
  public OutboxClaimOutcomeStore openStoreThrough(FixtureContext context, FaultProxies proxies) {
    current.routeThrough(proxies::nextRequest);
    return wrapper.apply(current);
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
