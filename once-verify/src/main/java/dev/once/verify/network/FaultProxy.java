package dev.once.verify.network;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy between one client and one dependency (a shop and PostgreSQL, the broker or the
 * provider), on a port of localhost, that can fail the way networks fail: {@link #refuse()} new
 * connections, {@link #resetAll()} the open ones, {@link #blackhole()} every connection (accepted,
 * kept open, nothing forwarded either way, no reset and no end of stream: the sender's writes fill
 * its buffers and its reads wait, as behind a firewall that drops packets), and add {@link #latency
 * latency and jitter} to every chunk it forwards; {@link #heal()} makes it a plain proxy again, and
 * what a blackhole held back flows on, as after a partition heals. One proxy per client and
 * dependency, so that one shop can be cut off from one dependency while the others still reach it
 * ({@link Network}).
 *
 * <p>Each connection is two threads, one per direction, which read a chunk and write it on; so the
 * order of the bytes in each direction is kept under every fault, as TCP keeps it. Thread-safe:
 * faults may be set from any thread while connections are open.
 */
public final class FaultProxy implements AutoCloseable {
  /** What the proxy does with connections. */
  public enum Mode {
    /** Forwards both ways. */
    PASS,
    /** Resets every new connection at once (open ones go on). */
    REFUSE,
    /** Forwards nothing, answers nothing, closes nothing; new connections are accepted. */
    BLACKHOLE
  }

  private static final int CHUNK = 16 * 1024;

  private final String name;
  private final InetSocketAddress target;
  private final ServerSocket server;
  private final Set<Link> links = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private final Object lock = new Object();
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong reset = new AtomicLong();

  // Guarded by lock.
  private Mode mode = Mode.PASS;
  private long latencyNanos;
  private long jitterNanos;
  private SplittableRandom random = new SplittableRandom(0);
  private volatile boolean closed;

  private FaultProxy(String name, InetSocketAddress target, ServerSocket server) {
    this.name = name;
    this.target = target;
    this.server = server;
    this.acceptor = new Thread(this::acceptLoop, "fault-proxy-" + name);
    this.acceptor.setDaemon(true);
  }

  /**
   * A proxy named {@code name} (for its threads and messages) listening on a free port of localhost
   * and forwarding to {@code target}, in {@link Mode#PASS}.
   */
  public static FaultProxy start(String name, InetSocketAddress target) throws IOException {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(target, "target");
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    FaultProxy proxy = new FaultProxy(name, target, server);
    proxy.acceptor.start();
    return proxy;
  }

  /** The port the client connects to. */
  public int port() {
    return server.getLocalPort();
  }

  public String name() {
    return name;
  }

  public Mode mode() {
    synchronized (lock) {
      return mode;
    }
  }

  /** Connections accepted and forwarded, refused, and reset by {@link #resetAll()}. */
  public long accepted() {
    return accepted.get();
  }

  public long refused() {
    return refused.get();
  }

  public long reset() {
    return reset.get();
  }

  /** New connections are reset as soon as they are accepted; open ones go on. */
  public void refuse() {
    setMode(Mode.REFUSE);
  }

  /**
   * Nothing is forwarded any more, either way, on open connections and new ones (which are
   * accepted); no connection is reset or closed.
   */
  public void blackhole() {
    setMode(Mode.BLACKHOLE);
  }

  /** A plain proxy again: what a blackhole held back flows on; the latency stays as it is. */
  public void heal() {
    setMode(Mode.PASS);
  }

  /**
   * Every chunk is held {@code base} plus a uniformly random part of {@code jitter} (drawn from
   * {@code seed}) before it is written on; zero and zero for none.
   */
  public void latency(Duration base, Duration jitter, long seed) {
    if (base.isNegative() || jitter.isNegative()) {
      throw new IllegalArgumentException("latency and jitter must not be negative");
    }
    synchronized (lock) {
      latencyNanos = base.toNanos();
      jitterNanos = jitter.toNanos();
      random = new SplittableRandom(seed);
    }
  }

  /** Resets every open connection, both sides (an RST, not an end of stream); new ones go on. */
  public void resetAll() {
    for (Link link : links) {
      link.reset();
      reset.incrementAndGet();
    }
  }

  /** Open connections, each a client and its connection to the target. */
  public int open() {
    return links.size();
  }

  private void setMode(Mode next) {
    synchronized (lock) {
      mode = next;
      lock.notifyAll();
    }
  }

  /** Waits while the proxy is a blackhole; {@code false} once it is closed. */
  private boolean awaitPassing() throws InterruptedException {
    synchronized (lock) {
      while (mode == Mode.BLACKHOLE && !closed) {
        lock.wait();
      }
      return !closed;
    }
  }

  private long delayNanos() {
    synchronized (lock) {
      return latencyNanos + (jitterNanos == 0 ? 0 : random.nextLong(jitterNanos + 1));
    }
  }

  private void acceptLoop() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      if (mode() == Mode.REFUSE) {
        refused.incrementAndGet();
        abort(client);
        continue;
      }
      try {
        Socket upstream = new Socket();
        upstream.connect(target, 5_000);
        Link link = new Link(client, upstream);
        links.add(link);
        accepted.incrementAndGet();
        link.start();
      } catch (IOException e) {
        abort(client); // the dependency itself is down: the client sees it so
      }
    }
  }

  /** Closes with an RST: SO_LINGER 0 makes close() abort the connection. */
  private static void abort(Socket socket) {
    try {
      socket.setSoLinger(true, 0);
    } catch (SocketException e) {
      // closed already
    }
    closeQuietly(socket);
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // nothing to do
    }
  }

  @Override
  public void close() {
    closed = true;
    setMode(Mode.PASS); // wakes the pumps, which see closed
    try {
      server.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    links.forEach(Link::reset);
    try {
      acceptor.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public String toString() {
    return "FaultProxy[" + name + " :" + port() + " -> " + target + ", " + mode() + "]";
  }

  /** One client connection and its connection to the target. */
  private final class Link {
    private final Socket client;
    private final Socket upstream;
    private final AtomicInteger directions = new AtomicInteger(2);

    Link(Socket client, Socket upstream) {
      this.client = client;
      this.upstream = upstream;
    }

    void start() {
      pump(client, upstream, "up");
      pump(upstream, client, "down");
    }

    private void pump(Socket from, Socket to, String direction) {
      Thread thread = new Thread(() -> forward(from, to), "fault-proxy-" + name + "-" + direction);
      thread.setDaemon(true);
      thread.start();
    }

    /**
     * Forwards {@code from}'s bytes to {@code to} until the end of stream, which goes on as a FIN
     * (the other direction goes on: a half-closed connection stays half open); both sockets close
     * when both directions ended. A failure of either side resets both.
     */
    private void forward(Socket from, Socket to) {
      byte[] buffer = new byte[CHUNK];
      try {
        InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream();
        while (awaitPassing()) {
          int n = in.read(buffer);
          if (n < 0) {
            to.shutdownOutput();
            if (directions.decrementAndGet() == 0) {
              links.remove(this);
              closeQuietly(client);
              closeQuietly(upstream);
            }
            return;
          }
          long delay = delayNanos();
          if (delay > 0) {
            Thread.sleep(delay / 1_000_000, (int) (delay % 1_000_000));
          }
          // A blackhole that began meanwhile holds this chunk back too.
          if (!awaitPassing()) {
            return;
          }
          out.write(buffer, 0, n);
          out.flush();
        }
      } catch (IOException e) {
        reset(); // one side is gone or reset: the other is reset too
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        reset();
      }
    }

    void reset() {
      links.remove(this);
      abort(client);
      abort(upstream);
    }
  }
}
