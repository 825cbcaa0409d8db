package io.claimedoutbox.conformance;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A loopback TCP proxy in front of one server, through which a fixture routes a store's connections
 * so the suite can break them at chosen moments. Between faults it forwards bytes both ways
 * unchanged. A fault is armed for the next request, the next bytes any client sends:
 *
 * <ul>
 *   <li>{@link Fault#CUT_BEFORE_REQUEST}: the request is dropped and its connection closed, so the
 *       server never sees it;
 *   <li>{@link Fault#CUT_AFTER_REQUEST}: the request reaches the server, which acts on it, and the
 *       connection is closed the moment the server answers, so the answer is lost;
 *   <li>{@link Fault#HOLD_REQUEST}: the request is held until {@link #release()} (longer than a lease,
 *       if the suite likes), then forwarded with its answer dropped and the connection closed: a write
 *       that arrives late and whose answer is lost.
 * </ul>
 *
 * <p>A fault fires once. {@link #cutAllConnections()} closes every open connection at once, as a
 * server restart or {@code CLIENT KILL} does. Thread-safe; one thread per open connection direction.
 */
public final class FaultProxy implements AutoCloseable {

  /** What happens to the next request. */
  public enum Fault {
    /** The request never reaches the server; its connection is closed. */
    CUT_BEFORE_REQUEST,
    /** The server acts on the request; its answer is lost with the connection. */
    CUT_AFTER_REQUEST,
    /** The request waits for {@link #release()}, then reaches the server; its answer is lost. */
    HOLD_REQUEST
  }

  private final InetSocketAddress target;
  private final ServerSocket listener;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Switch faults;

  /**
   * The armed fault, shared by every proxy of one {@link FaultProxies}: a store whose connections go
   * to several servers (a cluster) meets one fault wherever its next request goes.
   */
  static final class Switch {
    private final AtomicReference<Fault> armed = new AtomicReference<>();
    private final AtomicInteger toSkip = new AtomicInteger();
    private final AtomicInteger fired = new AtomicInteger();
    private volatile byte[] marker;
    private volatile CountDownLatch held = new CountDownLatch(1);
    private volatile CountDownLatch released = new CountDownLatch(1);
    private volatile CountDownLatch answerDropped = new CountDownLatch(1);

    void arm(Fault fault, int skip) {
      armFor(fault, skip, null);
    }

    void armFor(Fault fault, int skip, byte[] requestMarker) {
      marker = requestMarker;
      held = new CountDownLatch(1);
      released = new CountDownLatch(1);
      answerDropped = new CountDownLatch(1);
      toSkip.set(skip);
      armed.set(fault);
    }

    void disarm() {
      armed.set(null);
    }

    int fired() {
      return fired.get();
    }

    boolean awaitHeld(java.time.Duration timeout) {
      try {
        return held.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    void release() {
      released.countDown();
    }

    void answerDropped() {
      answerDropped.countDown();
    }

    boolean awaitAnswerDropped(java.time.Duration timeout) {
      try {
        return answerDropped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException interrupted) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    /**
     * Takes the armed fault for a request about to go out, counting it; a held request waits here
     * for {@link #release()}. A request without bytes to look into ({@code null}: an in-process
     * store's) meets a fault armed for a marker as well.
     */
    Fault fire(byte[] request, int length) throws InterruptedException {
      byte[] wanted = marker;
      if (armed.get() == null || (wanted != null && request != null && !contains(request, length, wanted))
          || toSkip.getAndDecrement() > 0) {
        return null;
      }
      Fault fault = armed.getAndSet(null);
      if (fault == null) {
        return null;
      }
      fired.incrementAndGet();
      if (fault == Fault.HOLD_REQUEST) {
        held.countDown();
        released.await();
      }
      return fault;
    }
  }

  private static boolean contains(byte[] data, int length, byte[] wanted) {
    outer:
    for (int start = 0; start + wanted.length <= length; start++) {
      for (int i = 0; i < wanted.length; i++) {
        if (data[start + i] != wanted[i]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private FaultProxy(InetSocketAddress target, Switch faults) throws IOException {
    this.target = target;
    this.faults = faults;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "fault-proxy-" + listener.getLocalPort());
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /**
   * Starts a proxy on a free loopback port.
   *
   * @param host the server's host
   * @param port the server's port
   * @return the running proxy
   */
  public static FaultProxy start(String host, int port) {
    return start(host, port, new Switch());
  }

  static FaultProxy start(String host, int port, Switch faults) {
    try {
      return new FaultProxy(new InetSocketAddress(host, port), faults);
    } catch (IOException failure) {
      throw new IllegalStateException("cannot open a loopback port for the fault proxy", failure);
    }
  }

  /** @return the loopback host clients connect to */
  public String host() {
    return listener.getInetAddress().getHostAddress();
  }

  /** @return the port clients connect to */
  public int port() {
    return listener.getLocalPort();
  }

  /** @return the server this proxy forwards to */
  public InetSocketAddress target() {
    return target;
  }

  /**
   * Arms a fault for the next request.
   *
   * @param fault what to do to it
   */
  public void arm(Fault fault) {
    faults.arm(fault, 0);
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
   * Waits until a {@link Fault#HOLD_REQUEST} holds a request.
   *
   * @param timeout how long to wait
   * @return whether a request is held
   */
  public boolean awaitHeld(java.time.Duration timeout) {
    return faults.awaitHeld(timeout);
  }

  /** Lets a held request go on to the server (its answer is still lost). */
  public void release() {
    faults.release();
  }

  /**
   * Waits until the server answered the faulted request and the proxy dropped that answer: the
   * server has acted on it by then, whether or not its client still waits.
   *
   * @param timeout how long to wait
   * @return whether the answer came and was dropped
   */
  public boolean awaitAnswerDropped(java.time.Duration timeout) {
    return faults.awaitAnswerDropped(timeout);
  }

  /** Closes every open connection, as a server restart would; new ones are accepted. */
  public void cutAllConnections() {
    open.forEach(FaultProxy::closeQuietly);
    open.clear();
  }

  @Override
  public void close() {
    closeQuietly(listener);
    cutAllConnections();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket();
        server.connect(target, 5_000);
        open.add(client);
        open.add(server);
        Connection connection = new Connection(client, server);
        pump("up", () -> connection.forwardRequests());
        pump("down", () -> connection.forwardAnswers());
      } catch (IOException closedOrRefused) {
        if (listener.isClosed()) {
          return;
        }
      }
    }
  }

  private void pump(String direction, Runnable work) {
    Thread thread = new Thread(work, "fault-proxy-" + port() + "-" + direction);
    thread.setDaemon(true);
    thread.start();
  }

  /** One client connection and its server connection. */
  private final class Connection {
    private final Socket client;
    private final Socket server;
    private volatile boolean dropNextAnswer;

    Connection(Socket client, Socket server) {
      this.client = client;
      this.server = server;
    }

    void forwardRequests() {
      byte[] buffer = new byte[64 * 1024];
      try {
        InputStream in = client.getInputStream();
        OutputStream out = server.getOutputStream();
        int read;
        while ((read = in.read(buffer)) >= 0) {
          Fault fault = faults.fire(buffer, read);
          if (fault == Fault.CUT_BEFORE_REQUEST) {
            closeBoth();
            return;
          }
          // a request read in several chunks keeps the fault its first chunk met (the connection ends with it)
          dropNextAnswer |= fault != null;
          out.write(buffer, 0, read);
          out.flush();
        }
        // a client that gave up on a faulted request (its read timed out while the request was held)
        // leaves the server connection open until the answer comes, so the server acts on it in full
        if (!dropNextAnswer) {
          closeBoth();
        }
      } catch (IOException | InterruptedException ended) {
        closeBoth();
      }
    }

    void forwardAnswers() {
      byte[] buffer = new byte[64 * 1024];
      try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
        int read;
        while ((read = in.read(buffer)) >= 0) {
          if (dropNextAnswer) {
            closeBoth();
            faults.answerDropped();
            return;
          }
          out.write(buffer, 0, read);
          out.flush();
        }
      } catch (IOException ended) {
        closeBoth();
      }
    }

    private void closeBoth() {
      closeQuietly(client);
      closeQuietly(server);
      open.remove(client);
      open.remove(server);
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // Closing is all a fault does; a socket already closed is the same result.
    }
  }
}
