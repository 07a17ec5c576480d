package dev.once.verify.network;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.once.verify.harness.BenchDatabase;
import dev.once.verify.harness.ShopLogin;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fault proxy on real sockets, in front of an echo server and in front of a real PostgreSQL:
 * each fault does to a client what the network's would (a reset, a connection that answers nothing,
 * a delay), and a healed proxy forwards again what it held back.
 */
@Timeout(60)
class FaultProxyTest {
  /** How long a read waits to show that nothing arrives (the proxy holds the bytes back). */
  private static final int QUIET_MILLIS = 500;

  private Echo echo;
  private FaultProxy proxy;

  @BeforeEach
  void start() throws IOException {
    echo = new Echo();
    proxy = FaultProxy.start("test->echo", echo.address());
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  void aPlainProxyForwardsBothWaysAndPassesTheEndOfStreamOn() throws IOException {
    try (Socket s = connect(proxy)) {
      send(s, "hello");
      assertThat(receive(s, 5)).isEqualTo("hello");
      s.shutdownOutput(); // the echo server answers an end of stream with its own
      assertThat(s.getInputStream().read()).isEqualTo(-1);
    }
    assertThat(proxy.accepted()).isEqualTo(1);
  }

  @Test
  void aBlackholeAnswersNothingAndClosesNothingAndHealingForwardsWhatItHeld() throws IOException {
    try (Socket open = connect(proxy)) {
      send(open, "a");
      assertThat(receive(open, 1)).isEqualTo("a");
      proxy.blackhole();
      send(open, "held");
      Socket fresh = connect(proxy); // accepted, as a firewall's silence would be
      send(fresh, "new");
      open.setSoTimeout(QUIET_MILLIS);
      fresh.setSoTimeout(QUIET_MILLIS);
      assertThatThrownBy(() -> open.getInputStream().read())
          .isInstanceOf(SocketTimeoutException.class);
      assertThatThrownBy(() -> fresh.getInputStream().read())
          .isInstanceOf(SocketTimeoutException.class);
      assertThat(echo.received()).isEqualTo(1); // only the "a" before the blackhole

      proxy.heal();
      open.setSoTimeout(0);
      fresh.setSoTimeout(0);
      assertThat(receive(open, 4)).isEqualTo("held");
      assertThat(receive(fresh, 3)).isEqualTo("new");
      fresh.close();
    }
  }

  @Test
  void refusingResetsNewConnectionsWhileOpenOnesGoOn() throws IOException {
    try (Socket open = connect(proxy)) {
      send(open, "a"); // a round trip: the proxy has accepted it before it refuses
      assertThat(receive(open, 1)).isEqualTo("a");
      proxy.refuse();
      try (Socket refused = connect(proxy)) {
        assertThatThrownBy(() -> refusedRead(refused)).isInstanceOf(SocketException.class);
      }
      send(open, "still");
      assertThat(receive(open, 5)).isEqualTo("still");
      assertThat(proxy.refused()).isEqualTo(1);
      proxy.heal();
      try (Socket again = connect(proxy)) {
        send(again, "back");
        assertThat(receive(again, 4)).isEqualTo("back");
      }
    }
  }

  @Test
  void resettingAbortsEveryOpenConnectionAndNewOnesGoOn() throws IOException {
    try (Socket first = connect(proxy);
        Socket second = connect(proxy)) {
      send(first, "x");
      send(second, "y");
      assertThat(receive(first, 1)).isEqualTo("x");
      assertThat(receive(second, 1)).isEqualTo("y");
      proxy.resetAll();
      assertThatThrownBy(() -> refusedRead(first)).isInstanceOf(SocketException.class);
      assertThatThrownBy(() -> refusedRead(second)).isInstanceOf(SocketException.class);
      assertThat(proxy.reset()).isEqualTo(2);
    }
    try (Socket next = connect(proxy)) {
      send(next, "z");
      assertThat(receive(next, 1)).isEqualTo("z");
    }
  }

  @Test
  void latencyHoldsEveryChunkAtLeastItsBaseEachWay() throws IOException {
    proxy.latency(Duration.ofMillis(200), Duration.ofMillis(50), 7);
    try (Socket s = connect(proxy)) {
      long start = System.nanoTime();
      send(s, "slow");
      assertThat(receive(s, 4)).isEqualTo("slow");
      // A lower bound only: the proxy sleeps at least the base before each write, both ways.
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(Duration.ofMillis(400));
    }
  }

  @Test
  void aPartitionCutsOneClientOffWhileAnotherStillReachesTheDependency() throws IOException {
    try (Network network = new Network()) {
      FaultProxy shop1 = network.route("shop-1", "echo", echo.address());
      FaultProxy shop2 = network.route("shop-2", "echo", echo.address());
      assertThat(network.route("shop-1", "echo", echo.address())).isSameAs(shop1);
      try (Socket one = connect(shop1);
          Socket two = connect(shop2)) {
        network.partition("shop-1", "echo");
        send(one, "lost");
        send(two, "kept");
        assertThat(receive(two, 4)).isEqualTo("kept");
        one.setSoTimeout(QUIET_MILLIS);
        assertThatThrownBy(() -> one.getInputStream().read())
            .isInstanceOf(SocketTimeoutException.class);
        network.heal();
        one.setSoTimeout(0);
        assertThat(receive(one, 4)).isEqualTo("lost");
      }
      assertThatThrownBy(() -> network.partition("shop-3", "echo"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no route from shop-3 to echo");
    }
  }

  /**
   * PostgreSQL behind a blackhole: a client with a socket time-out gets an error instead of waiting
   * for ever, and the connection is not usable again; once healed, a new connection works. This is
   * the fault in which a request must be answered 503 within a bound (issue 42).
   */
  @Test
  void aDatabaseBehindABlackholeFailsAClientWithASocketTimeoutAndHealingServesNewConnections()
      throws Exception {
    try (BenchDatabase db = BenchDatabase.start()) {
      ShopLogin login = db.login(BenchDatabase.DATABASE);
      URI uri = URI.create(login.jdbcUrl().substring("jdbc:".length()));
      try (FaultProxy pg =
          FaultProxy.start("test->postgres", new InetSocketAddress(uri.getHost(), uri.getPort()))) {
        String url = "jdbc:postgresql://localhost:" + pg.port() + uri.getPath();
        Properties props = new Properties();
        props.setProperty("user", login.appUser());
        props.setProperty("password", login.appPassword());
        props.setProperty("socketTimeout", "1");
        try (Connection c = DriverManager.getConnection(url, props)) {
          assertThat(one(c)).isEqualTo(1);
          pg.blackhole();
          assertThatThrownBy(() -> one(c))
              .isInstanceOf(SQLException.class)
              .hasMessageContaining("I/O error");
        }
        pg.heal();
        try (Connection c = DriverManager.getConnection(url, props)) {
          assertThat(one(c)).isEqualTo(1);
        }
      }
    }
  }

  private static int one(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT 1")) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static Socket connect(FaultProxy proxy) throws IOException {
    return new Socket(InetAddress.getLoopbackAddress(), proxy.port());
  }

  private static void send(Socket s, String text) throws IOException {
    OutputStream out = s.getOutputStream();
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }

  private static String receive(Socket s, int bytes) throws IOException {
    return new String(s.getInputStream().readNBytes(bytes), StandardCharsets.UTF_8);
  }

  /** A read on a reset connection: an RST, never an orderly end of stream. */
  private static int refusedRead(Socket s) throws IOException {
    int b = s.getInputStream().read();
    if (b < 0) {
      throw new AssertionError("an end of stream, not a reset");
    }
    return b;
  }

  /** Echoes each connection's bytes back, and an end of stream with its own. */
  private static final class Echo implements AutoCloseable {
    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final AtomicLong received = new AtomicLong();

    Echo() throws IOException {
      Thread acceptor =
          new Thread(
              () -> {
                while (!server.isClosed()) {
                  try {
                    Socket s = server.accept();
                    Thread t = new Thread(() -> echo(s), "echo");
                    t.setDaemon(true);
                    t.start();
                  } catch (IOException e) {
                    return;
                  }
                }
              },
              "echo-acceptor");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    private void echo(Socket s) {
      try (s) {
        InputStream in = s.getInputStream();
        OutputStream out = s.getOutputStream();
        byte[] buffer = new byte[1024];
        int n;
        while ((n = in.read(buffer)) >= 0) {
          received.addAndGet(n);
          out.write(buffer, 0, n);
          out.flush();
        }
        s.shutdownOutput();
      } catch (IOException e) {
        // the client went away
      }
    }

    InetSocketAddress address() {
      return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort());
    }

    /** Bytes the server has read. */
    long received() {
      return received.get();
    }

    @Override
    public void close() throws IOException {
      server.close();
    }
  }
}
