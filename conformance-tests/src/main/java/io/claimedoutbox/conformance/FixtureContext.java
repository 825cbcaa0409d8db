package io.claimedoutbox.conformance;

import java.time.Clock;

/**
 * What the suite hands a fixture when it asks for a store: the store must read time only from
 * {@code clock} and call {@code writeHook} between evaluating a transition and writing it.
 *
 * @param clock the suite's controllable clock
 * @param writeHook the suite's race stager
 */
public record FixtureContext(Clock clock, TransitionWriteHook writeHook) {}
