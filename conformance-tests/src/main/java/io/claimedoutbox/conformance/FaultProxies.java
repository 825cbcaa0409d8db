package io.claimedoutbox.conformance;

import io.claimedoutbox.conformance.FaultProxy.Fault;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The suite's fault proxies for one store: a fixture asks for the proxy in front of each server its
 * store talks to ({@link #proxyFor}) and connects there instead; the suite arms one fault for all of
 * them ({@link #arm}), so it fires wherever the store's next request goes. Closed by the suite.
 */
public final class FaultProxies implements AutoCloseable {

  private final FaultProxy.Switch faults = new FaultProxy.Switch();
  private final Map<InetSocketAddress, FaultProxy> proxies = new ConcurrentHashMap<>();

  /**
   * The address to connect to instead of a server: a loopback proxy in front of it, one per server.
   *
   * @param host the server's host
   * @param port the server's port
   * @return the proxy's address
   */
  public InetSocketAddress proxyFor(String host, int port) {
    FaultProxy proxy = proxies.computeIfAbsent(InetSocketAddress.createUnresolved(host, port),
        server -> FaultProxy.start(host, port, faults));
    return new InetSocketAddress(proxy.host(), proxy.port());
  }

  /**
   * Arms a fault for the next request to any of the servers.
   *
   * @param fault what to do to it
   */
  public void arm(Fault fault) {
    faults.arm(fault, 0);
  }

  /**
   * Arms a fault for a later request: the first {@code skip} requests pass, the next meets it. The
   * suite walks {@code skip} up so the fault meets each request of a call in turn, reads and writes
   * alike, whatever their number.
   *
   * @param fault what to do to it
   * @param skip how many requests pass first
   */
  public void arm(Fault fault, int skip) {
    faults.arm(fault, skip);
  }

  /**
   * Arms a fault for the next request whose bytes contain {@code marker} (in UTF-8), such as an
   * entry's id: other traffic of the store (a pool opening connections in the background, a
   * validation query) passes unharmed meanwhile.
   *
   * @param fault what to do to that request
   * @param marker text the request carries
   */
  public void armFor(Fault fault, String marker) {
    faults.armFor(fault, 0, marker.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Disarms a fault that has not fired. */
  public void disarm() {
    faults.disarm();
  }

  /** @return how many faults fired */
  public int faultsFired() {
    return faults.fired();
  }

  /**
   * @param timeout how long to wait
   * @return whether a {@link Fault#HOLD_REQUEST} holds a request
   */
  public boolean awaitHeld(Duration timeout) {
    return faults.awaitHeld(timeout);
  }

  /** Lets a held request go on (its answer is still lost). */
  public void release() {
    faults.release();
  }

  /**
   * @param timeout how long to wait
   * @return whether the server answered the faulted request (so acted on it) and that answer was
   *     dropped
   */
  public boolean awaitAnswerDropped(Duration timeout) {
    return faults.awaitAnswerDropped(timeout);
  }

  /**
   * For a store with no socket to route (an in-process store): call before each request the store
   * sends, and do to it what the proxy would. A held request waits here until {@link #release()}.
   *
   * @return the fault for this request, empty when none is armed
   */
  public Optional<Fault> nextRequest() {
    try {
      return Optional.ofNullable(faults.fire(null, 0));
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      return Optional.of(Fault.CUT_BEFORE_REQUEST);
    }
  }

  /** Closes every open connection through every proxy, as a server restart would. */
  public void cutAllConnections() {
    proxies.values().forEach(FaultProxy::cutAllConnections);
  }

  /** @return whether any fixture connection was routed through a proxy */
  public boolean inUse() {
    return !proxies.isEmpty();
  }

  @Override
  public void close() {
    faults.release();
    proxies.values().forEach(FaultProxy::close);
  }
}
